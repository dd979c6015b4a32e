"""The wheel holds a compiled library: a platform wheel (its files at the wheel's root, as
platlib), tagged for any Python 3 on this platform, since the bindings are ctypes only."""
from setuptools import setup
from setuptools.dist import Distribution


class BinaryDistribution(Distribution):
    def has_ext_modules(self):
        return True


try:
    from wheel.bdist_wheel import bdist_wheel

    class PlatformWheel(bdist_wheel):
        def get_tag(self):
            return "py3", "none", super().get_tag()[2]

    commands = {"bdist_wheel": PlatformWheel}
except ImportError:  # (no wheel package: an sdist or an in-place install)
    commands = {}

setup(distclass=BinaryDistribution, cmdclass=commands)
