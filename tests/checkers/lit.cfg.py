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

# Another clang-tidy major, for the plugin's version guard (scripts/setup.sh installs
# clang-tidy-19; tests that need it are skipped where it is absent).
import shutil
other_tidy = shutil.which("clang-tidy-19")
if other_tidy:
    config.available_features.add("clang-tidy-19")
    config.substitutions.append(("%other_tidy", other_tidy))

# A CUDA toolkit at /usr/local/cuda (or $CUDA_PATH): tests of the default arguments of a
# lone .cu against real headers need it and are skipped where it is absent.
cuda_root = os.environ.get("CUDA_PATH") or "/usr/local/cuda"
if os.path.exists(os.path.join(cuda_root, "include", "cuda_runtime.h")):
    config.available_features.add("cuda-toolkit")
    config.substitutions.append(("%cuda_root", cuda_root))
