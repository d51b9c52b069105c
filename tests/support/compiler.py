"""Whether this machine has the C compiler ``pip install`` builds the bot's C modules with
(``setup.py``): where it has one, those modules must have been built."""

from __future__ import annotations

import shutil
import sysconfig


def c_compiler_here() -> bool:
    """The compiler Python was configured with (``CC``, ``cc`` by default) is on the path."""
    cc = (sysconfig.get_config_var("CC") or "cc").split()[0]
    return shutil.which(cc) is not None
