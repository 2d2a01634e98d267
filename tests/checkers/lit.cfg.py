# lit configuration for warplint's checker tests: one .cu per check, expectations inline.
import os
import lit.formats

config.name = "warplint-checkers"
config.test_format = lit.formats.ShTest(execute_external=False)
config.suffixes = [".cu", ".test"]
config.excludes = ["Inputs"]
config.test_source_root = os.path.dirname(__file__)
config.test_exec_root = os.path.join(config.warplint_obj_root, "tests", "checkers")

# Hermetic CUDA: our own mock header, no toolkit headers, no libdevice.
mock = os.path.join(config.warplint_src_root, "tests", "Inputs", "cuda")
cuda_args = ("-x cuda -nocudainc -nocudalib -Wno-unknown-cuda-version "
             "-isystem %s -include cuda_runtime.h -resource-dir=%s"
             % (mock, config.clang_resource_dir))

config.substitutions.append(("%clang_tidy", "%s --load=%s" % (config.clang_tidy, config.plugin)))
config.substitutions.append(("%warplint", config.warplint))
config.substitutions.append(("%cuda_device", cuda_args + " --cuda-device-only"))
config.substitutions.append(("%cuda_host", cuda_args + " --cuda-host-only"))
config.substitutions.append(("%cuda_args", cuda_args))
config.substitutions.append(("%clangxx", config.clangxx))
config.substitutions.append(("%mock_cuda", mock))
# FileCheck that also fails on any warning or error it was not told to expect.
config.substitutions.append(("%check_diags",
    "%s --implicit-check-not='{{warning|error}}:'" % config.filecheck))
config.substitutions.append(("%FileCheck", config.filecheck))
config.substitutions.append(("%not", config.not_tool))
config.substitutions.append(("%plugin", config.plugin))

# A plugin-only build (WARPLINT_PLUGIN_ONLY, another LLVM major) has no driver: the tests
# that run it are left out.
if not config.warplint:
    for name in sorted(os.listdir(config.test_source_root)):
        path = os.path.join(config.test_source_root, name)
        if name.endswith((".cu", ".test")) and "%warplint" in open(path).read():
            config.excludes.append(name)

# Another clang-tidy major, for the plugin's version guard: 19 for a plugin built for 22,
# 22 for one built for 19 (scripts/setup.sh installs both; tests that need it are skipped
# where it is absent).
import shutil
other_major = "22" if config.llvm_major == "19" else "19"
other_tidy = shutil.which("clang-tidy-" + other_major)
if other_tidy:
    config.available_features.add("other-clang-tidy")
    config.substitutions.append(("%other_tidy", other_tidy))
config.substitutions.append(("%other_major", other_major))
config.substitutions.append(("%llvm_major", config.llvm_major))

# A CUDA toolkit at /usr/local/cuda (or $CUDA_PATH): tests of the default arguments of a
# lone .cu against real headers need it and are skipped where it is absent.
cuda_root = os.environ.get("CUDA_PATH") or "/usr/local/cuda"
if os.path.exists(os.path.join(cuda_root, "include", "cuda_runtime.h")):
    config.available_features.add("cuda-toolkit")
    config.substitutions.append(("%cuda_root", cuda_root))
