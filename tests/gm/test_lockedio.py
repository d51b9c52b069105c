"""Reads and writes that keep the interpreter lock (``bot/gm/lockedio.c``, issue 16): the
worker pool's sockets are read and written with them where they were built. They answer
as ``os.read`` and ``os.write`` do on a non-blocking descriptor, and refuse a blocking
one, on which holding the lock could stall every thread."""

from __future__ import annotations

import errno
import os
import socket
from collections.abc import Iterator
from pathlib import Path
from types import ModuleType

import pytest

from bot import native
from bot.gm import loop_pool
from tests.support.compiler import c_compiler_here

SOURCE = Path(loop_pool.__file__).with_name("lockedio.c")
needs_lockedio = pytest.mark.skipif(
    loop_pool.LOCKED_IO is None, reason="no C compiler here: os.read and os.write serve"
)


def test_it_is_built_where_a_compiler_is() -> None:
    """``pip install`` builds it wherever a C compiler is found (the CI machine has one),
    and the pool then uses it."""
    if not c_compiler_here():
        assert loop_pool.LOCKED_IO is None
        assert loop_pool._write_now is os.write
    else:
        assert loop_pool.LOCKED_IO is not None, "reinstall (`pip install -e .`) to build it"
        assert loop_pool._write_now is loop_pool.LOCKED_IO.write
        assert loop_pool._read_now is loop_pool.LOCKED_IO.read
        assert native.built_from(loop_pool.LOCKED_IO, SOURCE)


@pytest.fixture(params=[pytest.param("lockedio", marks=needs_lockedio), "os"])
def io(request: pytest.FixtureRequest) -> ModuleType:
    """The module under test, and ``os`` as the reference it must answer as."""
    if request.param == "os":
        return os
    assert loop_pool.LOCKED_IO is not None
    return loop_pool.LOCKED_IO


@pytest.fixture
def pair() -> Iterator[tuple[socket.socket, socket.socket]]:
    a, b = socket.socketpair()
    a.setblocking(False)
    b.setblocking(False)
    yield a, b
    a.close()
    b.close()


def test_what_is_written_is_read(io: ModuleType, pair: tuple[socket.socket, socket.socket]) -> None:
    a, b = pair
    assert io.write(a.fileno(), b"job") == 3
    assert io.write(a.fileno(), bytearray(b" and")) == 4
    assert io.write(a.fileno(), memoryview(b"xx more")[2:]) == 5
    assert io.read(b.fileno(), 100) == b"job and more"
    assert io.write(a.fileno(), b"") == 0
    assert io.read(b.fileno(), 0) == b""


def test_a_full_socket_takes_part_then_nothing(
    io: ModuleType, pair: tuple[socket.socket, socket.socket]
) -> None:
    a, b = pair
    big = os.urandom(8 * 1024 * 1024)
    taken = io.write(a.fileno(), big)
    assert 0 < taken < len(big)
    with pytest.raises(BlockingIOError):
        io.write(a.fileno(), big[taken:])
    got = bytearray()
    while len(got) < taken:
        got += io.read(b.fileno(), 1 << 18)
    assert bytes(got) == big[:taken]


def test_nothing_to_read_and_the_end(
    io: ModuleType, pair: tuple[socket.socket, socket.socket]
) -> None:
    a, b = pair
    with pytest.raises(BlockingIOError):
        io.read(b.fileno(), 10)
    a.shutdown(socket.SHUT_WR)
    assert io.read(b.fileno(), 10) == b""  # the worker closed its end


def test_errors_are_os_errors(io: ModuleType, pair: tuple[socket.socket, socket.socket]) -> None:
    a, b = pair
    b.close()
    with pytest.raises(OSError) as broken:
        io.write(a.fileno(), b"to nobody")
    assert broken.value.errno in (errno.EPIPE, errno.ECONNRESET)
    r, w = os.pipe()
    os.close(w)
    os.close(r)
    with pytest.raises(OSError) as closed:
        io.read(r, 10)
    assert closed.value.errno == errno.EBADF


@needs_lockedio
def test_a_blocking_descriptor_is_refused(pair: tuple[socket.socket, socket.socket]) -> None:
    """Holding the lock through a call that may wait would stop every thread."""
    io = loop_pool.LOCKED_IO
    assert io is not None
    a, b = pair
    b.setblocking(True)
    with pytest.raises(ValueError, match="non-blocking"):
        io.read(b.fileno(), 10)
    with pytest.raises(ValueError, match="non-blocking"):
        io.write(b.fileno(), b"x")
    with pytest.raises(ValueError, match="not a file descriptor"):
        io.write(-1, b"x")
    with pytest.raises(ValueError, match="not be negative"):
        io.read(a.fileno(), -1)
    with pytest.raises(TypeError):
        io.write(a.fileno(), "text")
    with pytest.raises(TypeError):
        io.read(a.fileno())
