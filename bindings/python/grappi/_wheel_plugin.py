"""The Dask worker plugin of grappi.distributed.install_wheel. Standard library and Dask only:
it is sent by value to workers that may not have grappi yet."""
import hashlib
import os
import sys
import zipfile


class GrappiWheel:
    """Unpacks a grappi wheel into the worker's local directory and puts it first on sys.path."""

    name = "grappi-wheel"

    def __init__(self, filename, data):
        self.filename = filename
        self.data = data

    def setup(self, worker):
        digest = hashlib.sha256(self.data).hexdigest()[:16]
        base = getattr(worker, "local_directory", None) or os.path.join(os.path.expanduser("~"), ".cache")
        target = os.path.join(base, "grappi-wheel-" + digest)
        if not os.path.isdir(target):
            partial = target + ".part-%d" % os.getpid()
            archive = partial + ".whl"
            os.makedirs(partial, exist_ok=True)
            with open(archive, "wb") as f:
                f.write(self.data)
            with zipfile.ZipFile(archive) as z:
                for member in z.namelist():  # (inside the directory only)
                    resolved = os.path.realpath(os.path.join(partial, member))
                    if not resolved.startswith(os.path.realpath(partial) + os.sep):
                        raise ValueError("%s: %r leaves the directory" % (self.filename, member))
                z.extractall(partial)
            os.remove(archive)
            try:
                os.rename(partial, target)
            except OSError:  # (another worker of this machine was first)
                pass
        for module in [m for m in sys.modules if m == "grappi" or m.startswith("grappi.")]:
            if module != __name__:
                del sys.modules[module]
        if target not in sys.path:
            sys.path.insert(0, target)

    def teardown(self, worker):
        pass


def grappi_version():
    """The grappi version a worker imports, and where from."""
    import grappi

    return {"version": grappi.version(), "module": grappi.__file__}
