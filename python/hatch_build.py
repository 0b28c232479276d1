"""Build hook: the wheel carries a native binary, so it is tagged
py3-none-<platform> (any Python 3, no ABI), never as pure Python: the
platform is $DOCSCORE_WHEEL_PLATFORM (scripts/python-wheel.sh sets it for
each target) or else the one it is built on."""
import os

from hatchling.builders.hooks.plugin.interface import BuildHookInterface


class CustomBuildHook(BuildHookInterface):
    def initialize(self, version, build_data):
        exe = os.environ.get("DOCSCORE_WHEEL_EXE") or _exe("docscore")
        binary = os.path.join(self.root, "src", "docscore", "bin", exe)
        if not os.path.isfile(binary):
            raise RuntimeError(
                f"{binary} is missing: build the wheel with 'make python-wheel' "
                "from the repository root (it puts the native binary there first)"
            )
        build_data["pure_python"] = False
        build_data["tag"] = "py3-none-" + (os.environ.get("DOCSCORE_WHEEL_PLATFORM") or _platform())


def _platform():
    """The wheel's platform tag. The Linux binary is static (built with
    CGO_ENABLED=0), so it claims the oldest manylinux a wheel can."""
    import sysconfig

    plat = sysconfig.get_platform().replace("-", "_").replace(".", "_")
    if plat.startswith("linux_"):
        arch = plat[len("linux_"):]
        return f"manylinux_2_17_{arch}.manylinux2014_{arch}"
    return plat


def _exe(name):
    return name + ".exe" if os.name == "nt" else name
