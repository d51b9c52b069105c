/* Reads and writes on non-blocking descriptors that keep the interpreter lock.
 *
 * Why (issue 16): ``os.read`` and ``os.write`` release the interpreter lock around their
 * system call, as they must for a call that may block. On a non-blocking descriptor the
 * call never blocks (microseconds: a copy to or from the kernel's buffer), but the
 * release hands the lock to any thread waiting for it (the store's, an executor's), and
 * the event loop then waits for it back, up to the switch interval. Under load the loop's
 * write of a job to a drawing or AI worker took 37 us of CPU and 299 us on the clock.
 * These two functions make the same system calls with the lock held, and refuse a
 * descriptor in blocking mode, where holding it could stall every thread.
 */

#define PY_SSIZE_T_CLEAN
#include <Python.h>

#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <unistd.h>

#ifndef SOURCE_SHA256
#define SOURCE_SHA256 ""
#endif

/* The descriptor ``obj`` names; -1 with an exception set if it names none. */
static int
as_fd(PyObject *obj)
{
    long fd = PyLong_AsLong(obj);
    if (fd == -1 && PyErr_Occurred())
        return -1;
    if (fd < 0 || fd > INT_MAX) {
        PyErr_SetString(PyExc_ValueError, "not a file descriptor");
        return -1;
    }
    return (int)fd;
}

/* 0 when ``fd`` is non-blocking; -1 with an exception set otherwise. */
static int
check_nonblocking(int fd)
{
    int flags = fcntl(fd, F_GETFL);
    if (flags == -1) {
        PyErr_SetFromErrno(PyExc_OSError);
        return -1;
    }
    if (!(flags & O_NONBLOCK)) {
        PyErr_SetString(PyExc_ValueError,
                        "lockedio only reads and writes non-blocking descriptors");
        return -1;
    }
    return 0;
}

PyDoc_STRVAR(write_doc,
"write(fd, data, /) -> int\n\n"
"Write what the non-blocking descriptor ``fd`` takes of ``data`` now; return how many\n"
"bytes. As ``os.write``, but with the interpreter lock held: ``BlockingIOError`` when\n"
"nothing fits, ``OSError`` on other errors, ``ValueError`` if ``fd`` blocks.");

static PyObject *
lockedio_write(PyObject *self, PyObject *const *args, Py_ssize_t nargs)
{
    (void)self;
    if (nargs != 2) {
        PyErr_SetString(PyExc_TypeError, "write() takes exactly 2 arguments (fd, data)");
        return NULL;
    }
    int fd = as_fd(args[0]);
    if (fd == -1)
        return NULL;
    if (check_nonblocking(fd) < 0)
        return NULL;
    Py_buffer view;
    if (PyObject_GetBuffer(args[1], &view, PyBUF_SIMPLE) < 0)
        return NULL;
    ssize_t n;
    for (;;) {
        n = write(fd, view.buf, (size_t)view.len);
        if (n >= 0 || errno != EINTR)
            break;
        if (PyErr_CheckSignals() < 0) {
            PyBuffer_Release(&view);
            return NULL;
        }
    }
    PyBuffer_Release(&view);
    if (n < 0)
        return PyErr_SetFromErrno(PyExc_OSError);
    return PyLong_FromSsize_t(n);
}

PyDoc_STRVAR(read_doc,
"read(fd, size, /) -> bytes\n\n"
"At most ``size`` bytes the non-blocking descriptor ``fd`` holds now (``b''`` at its\n"
"end). As ``os.read``, but with the interpreter lock held: ``BlockingIOError`` when\n"
"nothing is there, ``OSError`` on other errors, ``ValueError`` if ``fd`` blocks.");

static PyObject *
lockedio_read(PyObject *self, PyObject *const *args, Py_ssize_t nargs)
{
    (void)self;
    if (nargs != 2) {
        PyErr_SetString(PyExc_TypeError, "read() takes exactly 2 arguments (fd, size)");
        return NULL;
    }
    int fd = as_fd(args[0]);
    if (fd == -1)
        return NULL;
    Py_ssize_t size = PyLong_AsSsize_t(args[1]);
    if (size == -1 && PyErr_Occurred())
        return NULL;
    if (size < 0) {
        PyErr_SetString(PyExc_ValueError, "size must not be negative");
        return NULL;
    }
    if (check_nonblocking(fd) < 0)
        return NULL;
    PyObject *out = PyBytes_FromStringAndSize(NULL, size);
    if (out == NULL)
        return NULL;
    ssize_t n;
    for (;;) {
        n = read(fd, PyBytes_AS_STRING(out), (size_t)size);
        if (n >= 0 || errno != EINTR)
            break;
        if (PyErr_CheckSignals() < 0) {
            Py_DECREF(out);
            return NULL;
        }
    }
    if (n < 0) {
        Py_DECREF(out);
        return PyErr_SetFromErrno(PyExc_OSError);
    }
    if (n != size && _PyBytes_Resize(&out, n) < 0)
        return NULL;
    return out;
}

static PyMethodDef methods[] = {
    {"write", (PyCFunction)(void (*)(void))lockedio_write, METH_FASTCALL, write_doc},
    {"read", (PyCFunction)(void (*)(void))lockedio_read, METH_FASTCALL, read_doc},
    {NULL, NULL, 0, NULL},
};

static struct PyModuleDef module = {
    PyModuleDef_HEAD_INIT,
    "bot.gm.lockedio",
    "Reads and writes on non-blocking descriptors with the interpreter lock held.",
    -1,
    methods,
    NULL,
    NULL,
    NULL,
    NULL,
};

PyMODINIT_FUNC
PyInit_lockedio(void)
{
    PyObject *m = PyModule_Create(&module);
    if (m == NULL)
        return NULL;
    if (PyModule_AddStringConstant(m, "SOURCE_SHA256", SOURCE_SHA256) < 0) {
        Py_DECREF(m);
        return NULL;
    }
    return m;
}
