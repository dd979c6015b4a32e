"""The package's version: the library's (CMake's project version; the wheel test checks they agree)."""
__version__ = "0.1.0"
