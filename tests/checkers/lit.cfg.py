# lit configuration for warplint's checker tests: one .cu per check, expectations inline.
import os
import lit.formats

config.name = "warplint-checkers"
config.test_format = lit.formats.ShTest(execute_external=False)
config.suffixes = [".cu", ".hip", ".test"]
config.excludes = ["Inputs"]
config.test_source_root = os.path.dirname(__file__)
config.test_exec_root = os.path.join(config.warplint_obj_root, "tests", "checkers")

# Hermetic CUDA: our own mock header, no toolkit headers, no libdevice.
mock = os.path.join(config.warplint_src_root, "tests", "Inputs", "cuda")
cuda_args = ("-x cuda -nocudainc -nocudalib -Wno-unknown-cuda-version "
             "-isystem %s -include cuda_runtime.h -resource-dir=%s"
             % (mock, config.clang_resource_dir))

# Hermetic HIP: warplint's own HIP header, no ROCm headers, no device libraries. The
# wavefront size macro is what warplint adds to a HIP parse (ROCm's headers need it).
mock_hip = os.path.join(config.warplint_src_root, "tests", "Inputs", "hip")
def hip_args(arch, wave):
    return ("-x hip --cuda-device-only --offload-arch=%s -nogpuinc -nogpulib "
            "-D__AMDGCN_WAVEFRONT_SIZE=%d -isystem %s -include hip/hip_runtime.h "
            "-resource-dir=%s" % (arch, wave, mock_hip, config.clang_resource_dir))
config.substitutions.append(("%hip_gfx90a", hip_args("gfx90a", 64)))
config.substitutions.append(("%hip_gfx906", hip_args("gfx906", 64)))
config.substitutions.append(("%hip_gfx908", hip_args("gfx908", 64)))
config.substitutions.append(("%hip_gfx1030_w64", hip_args("gfx1030", 64) + " -mwavefrontsize64"))
config.substitutions.append(("%hip_gfx1030", hip_args("gfx1030", 32)))
config.substitutions.append(("%mock_hip", mock_hip))
# A recorded AMDGPU assembly as the register source (Inputs/hip/recorded): the clang
# register source with a stand-in clang that prints the file named by
# $WARPLINT_RECORDED_ASM, so the counts of a hermetic test are fixed.
recorded = os.path.join(config.test_source_root, "Inputs", "hip", "recorded")
config.substitutions.append(("%recorded_clang_options",
    "warplint.RegisterSource: clang, warplint.HipClang: '%s'"
    % os.path.join(recorded, "amdgpu-clang.sh")))
config.substitutions.append(("%recorded", recorded))
# ROCm's HIP headers (Debian's libamdhip64-dev in /usr, or /opt/rocm, or $ROCM_PATH):
# tests that parse against them are skipped where they are absent.
for rocm in [os.environ.get("ROCM_PATH"), "/opt/rocm", "/usr"]:
    if rocm and os.path.exists(os.path.join(rocm, "include", "hip", "hip_runtime.h")):
        config.available_features.add("rocm")
        config.substitutions.append(("%rocm_root", rocm))
        break
if "ROCM_PATH" in os.environ:
    config.environment["ROCM_PATH"] = os.environ["ROCM_PATH"]
# clang's AMDGPU backend (for the register counts from the compiler): llc-22 knows amdgcn.
import subprocess
try:
    targets = subprocess.run(["llc-22", "--version"], capture_output=True, text=True).stdout
    if "amdgcn" in targets:
        config.available_features.add("amdgpu-backend")
except OSError:
    pass

config.substitutions.append(("%clang_tidy", "%s --load=%s" % (config.clang_tidy, config.plugin)))
# %warplint_src_root before %warplint, whose text it starts with.
config.substitutions.append(("%warplint_src_root", config.warplint_src_root))
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
        if name.endswith((".cu", ".hip", ".test")) and "%warplint" in open(path).read():
            config.excludes.append(name)

# Another clang-tidy major, for the plugin's version guard: 19 for a plugin built for 22,
# 22 for one built for 19 (scripts/test.sh installs both; tests that need it are skipped
# where it is absent).
import shutil
other_major = "22" if config.llvm_major == "19" else "19"
other_tidy = shutil.which("clang-tidy-" + other_major)
if other_tidy:
    config.available_features.add("other-clang-tidy")
    config.substitutions.append(("%other_tidy", other_tidy))
config.substitutions.append(("%other_major", other_major))
config.substitutions.append(("%llvm_major", config.llvm_major))
# __cluster_dims__ is an attribute clang knows from version 20 on: the plugin built for an
# older clang reads clusters from cudaLaunchKernelEx only (docs/checks/
# warplint-launch-config-invalid.md), and the tests that declare them are skipped there.
if int(config.llvm_major) >= 20:
    config.available_features.add("cluster-dims-attribute")

# A CUDA toolkit at /usr/local/cuda (or $CUDA_PATH): tests of the default arguments of a
# lone .cu against real headers need it and are skipped where it is absent.
cuda_root = os.environ.get("CUDA_PATH") or "/usr/local/cuda"
if os.path.exists(os.path.join(cuda_root, "include", "cuda_runtime.h")):
    config.available_features.add("cuda-toolkit")
    # nvcc itself (the register source that runs the compiler, the what-if of advice).
    if os.access(os.path.join(cuda_root, "bin", "nvcc"), os.X_OK):
        config.available_features.add("nvcc")
    config.substitutions.append(("%cuda_root", cuda_root))
    # clang-tidy itself parsing the toolkit's own headers: clang 19's CUDA wrapper
    # includes texture_fetch_functions.h, which CUDA 13 no longer ships (README, LLVM 19),
    # so the plugin built for LLVM 19 skips the tests that run %clang_tidy on them.
    if int(config.llvm_major) >= 22:
        config.available_features.add("clang-tidy-parses-toolkit")
