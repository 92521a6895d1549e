"""The exceptions of the tcgen package.

This file implements the error classes every module raises, so callers can
catch one base class (TcgenError) or a specific kind.
"""


class TcgenError(Exception):
    """Base class of the package's errors."""


class CompileError(TcgenError):
    """The compiler failed, or could not be found or run."""


class CacheMiss(CompileError):
    """No cached bundle for a problem and no compiler to build one."""


class BundleError(TcgenError):
    """A bundle directory or manifest is missing or malformed."""


class ArgumentError(TcgenError, ValueError):
    """Arguments of a kernel call do not match its manifest."""


class LibraryNotFound(TcgenError, OSError):
    """libtcgen_rt could not be found or opened (the places tried listed)."""


class RuntimeCallError(TcgenError, RuntimeError):
    """A failed runtime call: the status name and the runtime's message."""

    def __init__(self, call, status, status_name, message):
        self.call = call
        self.status = status
        self.status_name = status_name
        self.message = message
        super().__init__("%s: %s: %s" % (call, status_name, message))
