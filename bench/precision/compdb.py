#!/usr/bin/env python3
# Writes an nvcc compile_commands.json for the code bases of the precision sample
# (docs/precision.md) from a checkout of each. Nothing from the checkout is copied; the
# database names its files where they are.
#
# usage: bench/precision/compdb.py
#            magma|faiss|darknet|kaldi|gpujpeg|fastertransformer|xgboost|hecbench|amgx|ginkgo|
#            physx|tensorrt|gromacs|mnn|mumax|gpumd|ccminer|autodock|moderngpu|tcnn|
#            xmrig-cuda|thundersvm|bitsandbytes|hoomd|opencv_contrib|dlib|caffe|sputnik|cusz|
#            popsift|cuszp|cudasift|cupdlpx|cudpp|zfp|libsgm|relion|jetson-utils|kangaroo|
#            tnn|slate|cufinufft|slabhash|sgemm-cuda|astra|cutt|gpufit|infinitam|viennacl|
#            libfreenect2|pointpillars|gasal2|dualsphysics|specfem3d|cudasw4|gamer|
#            instant-ngp|gardenia|bght|quest|deepmd|mcx|cholla|gpu4pyscf|sundials|
#            thundergbm|vanitysearch|gomc|lidar-ai|pcl|cuda-convnet2|cloverleaf-cuda|
#            kblas|nvbio|unidock|learn-cuda|cusha|hypre|qmcpack|raytracing-cuda|chai|
#            quick|osqp|qsim|gpunufft|superlu-dist|tealeaf-cuda|peasoup
#            crystal|subway|cgbn|ggnn|graphbig|hkv|cvcuda|phantom
#            CHECKOUT OUTDIR [--nvcc PATH] [--opencv-headers DIR] [--catch2 DIR]
#
#   magma   icl-utk-edu/magma. Its Makefile is the build. Before this script, in the
#           checkout: cp make.inc-examples/make.inc.openblas make.inc, then
#           make generate OPENBLASDIR=/usr GPU_TARGET=Ampere (codegen.py writes the
#           s/d/c precisions and the headers) and
#           make include/magma_config.h OPENBLASDIR=/usr GPU_TARGET=Ampere.
#           The script runs `make -n -B magmablas` with the same variables and keeps
#           the nvcc line of every magmablas/*.cu that git tracks (the sources the
#           authors wrote: the z precision of the generated families, the hand-written
#           s/d/c/h files), leaving out the generated c/d/s copies of the z files,
#           which repeat the same kernels in another type.
#   faiss   facebookresearch/faiss. CMake is the build: configured into OUTDIR/cmake with
#           -DFAISS_ENABLE_GPU=ON -DFAISS_ENABLE_PYTHON=OFF -DBUILD_TESTING=OFF
#           -DCMAKE_BUILD_TYPE=Release -DCMAKE_CUDA_ARCHITECTURES=80; every .cu of the
#           source tree (faiss/gpu/**) once, leaving out the template instances CMake
#           generates into the build tree (template_*.cu: one IVF-PQ kernel per
#           codec/metric/tile, the same source code many times over).
#   darknet AlexeyAB/darknet. Its Makefile is the build: `make -n -B GPU=1` with ARCH set to
#           sm_80 (the Makefile lists sm_50-sm_61), keeping the nvcc line of each src/*.cu.
#   kaldi   kaldi-asr/kaldi. Its Makefiles are the build, reading src/kaldi.mk, which
#           src/configure writes. configure cannot run here (it stops without an OpenFst
#           build in tools/openfst and knows CUDA up to 12), so the script writes into
#           CHECKOUT/src/kaldi.mk what configure writes for a CUDA build that concerns the
#           .cu files: CUDA = true, IS_GPU_BUILD = true, WITH_CUDADECODER = true (its
#           default with CUDA), CUDATKDIR, CUDA_ARCH = -gencode arch=compute_80,code=sm_80,
#           DOUBLE_PRECISION = 0 (its default), OPENFSTVER = 10804 (tools/Makefile's
#           OpenFst 1.8.4), OPENFSTINC and CUBROOT under tools/ (absent: nothing the .cu
#           files include reaches OpenFst's headers when OPENFSTVER >= 10800, and CUDA
#           13's cub is nvcc's own), CXX = g++, then makefiles/cuda_64bit.mk as configure
#           appends it, with its -std=c++14 made -std=c++17: CUDA 13's CCCL (cub, libcu++)
#           refuses C++14, so nvcc 13 fails on every file that includes cub at c++14
#           (configure's CXXLANGVERSION for OpenFst >= 1.8 is c++17 too). Then `make -n -B X.o` in each directory with .cu files
#           (cudamatrix, chain, cudafeat, cudadecoder) and keeps the nvcc line.
#   gpujpeg CESNET/GPUJPEG. CMake is the build: configured into OUTDIR/cmake with
#           -DCMAKE_CUDA_ARCHITECTURES=80 -DCMAKE_BUILD_TYPE=Release (OpenGL not found
#           here, so its interop is off, as the configure says); every .cu of the
#           library (src/*.cu) once.
#   fastertransformer  NVIDIA/FasterTransformer. CMake is the build: configured into
#           OUTDIR/cmake with -DSM=80 (its own arch variable) and its defaults otherwise
#           (BUILD_CUTLASS_MOE, BUILD_CUTLASS_MIXED_GEMM, ENABLE_FP8 and USE_NVTX on), with
#           CHECKOUT/3rdparty/cutlass holding its submodule at the recorded commit
#           (NVIDIA/cutlass cc85b64c: `include` and `tools/util/include`),
#           GIT_AUTOCLONE_CUTLASS=OFF (no network) and googletest, which its CMake
#           downloads, taken from Debian's /usr/src/googletest. Every .cu under
#           src/fastertransformer once, leaving out kernels/cutlass_kernels/** (instances
#           of CUTLASS's GEMM templates, not kernels of FasterTransformer's own). Its
#           -std=c++14 is made -std=c++17, as for kaldi: CUDA 13's CCCL refuses C++14.
#   xgboost dmlc/xgboost. CMake is the build: configured into OUTDIR/cmake with
#           -DUSE_CUDA=ON, CHECKOUT/dmlc-core holding dmlc-core (its submodule); every .cu
#           under src/ once.
#   hecbench zjin-lcf/HeCBench. CMake is the build (CMAKE_BUILD.md): configured into
#           OUTDIR/cmake with its cuda-sm80 preset's variables (HECBENCH_ENABLE_CUDA=ON,
#           HIP, SYCL and OPENMP OFF, HECBENCH_CUDA_ARCH=80), Ninja and
#           CMAKE_EXPORT_COMPILE_COMMANDS as the preset sets them, configure only. The
#           configure unpacks each benchmark's data archives into the checkout (those that
#           DVC keeps, absent from a git archive, fail with a message and no error). Two
#           archives hold library sources: axhelm's BlasLapack.tar.gz (Fortran) and slu's
#           nicslu.tar.bz2 (C); absent, add_library(X STATIC) gets no sources and the
#           generate step fails. CMAKE_PROJECT_INCLUDE=OUTDIR/compdb-hook.cmake (written
#           here) gives such a library one empty C file; no .cu file is touched (slu's
#           numeric.cu then misses nicslu's headers, as a build would). Every .cu under
#           src/*-cuda/ once, leaving out the benchmarks that port Rodinia (README: "in the
#           Rodinia benchmark suite"; docs/real-code.md measures Rodinia itself):
#           HECBENCH_RODINIA below. The benchmarks that the CMake list leaves out, and
#           those it skips for what is not installed here (MPI, NCCL, Boost, GSL, GDAL),
#           are not in the database. The checkout is a `git archive` of the commit (less
#           the blobs a snapshot may lack; docs/precision.md AFTER 14 has the command).
#   amgx    NVIDIA/AMGX. CMake is the build: configured into OUTDIR/cmake with
#           -DCMAKE_NO_MPI=ON (no MPI here; its own switch for a non-MPI build); every
#           .cu of the checkout once (src/** and the two examples/*.cu CMake builds),
#           leaving out its unit tests (src/tests/).
#   ginkgo  ginkgo-project/ginkgo. CMake is the build: configured into OUTDIR/cmake with
#           its CUDA backend only (-DGINKGO_BUILD_CUDA=ON, GINKGO_BUILD_HIP, _SYCL and _MPI
#           OFF; OpenMP and reference stay at their defaults, host C++ only) and
#           -DGINKGO_BUILD_TESTS=OFF -DGINKGO_BUILD_BENCHMARKS=OFF
#           -DGINKGO_BUILD_EXAMPLES=OFF (unit tests, benchmarks and examples, whose
#           googletest, gflags and nlohmann_json its CMake would download), and
#           -DGINKGO_SPLIT_TEMPLATE_INSTANTIATIONS=OFF, its own switch: at its default ON
#           the configure cuts csr_kernels, fbcsr_kernels and the batch solvers' launch
#           files into numbered copies in the build tree (37 for CSR, one type list each,
#           for parallel compile time only); OFF, each is compiled as the source file
#           itself. Ginkgo's CUDA code is mostly .cpp files that its CMake gives
#           LANGUAGE CUDA (nvcc ... -x cu): the database is every file the build compiles
#           with nvcc, once (common/cuda_hip/**, common/unified/** and cuda/**; cuda/'s
#           host .cpp files go to g++ and are not in it), and of the Jacobi kernels, which
#           configure_file copies from common/cuda_hip/preconditioner/
#           jacobi_*_kernels.instantiate.cpp into the build tree once per block size (1, 2,
#           4, 8, 13, 16, 32 at its default GINKGO_JACOBI_FULL_OPTIMIZATIONS=OFF: the same
#           kernels at another block size), only the copies for 32, the default
#           max_block_size; configure_file changes one line (#cmakedefine
#           GKO_JACOBI_BLOCK_SIZE), so their line numbers are the template's.
#   physx   NVIDIA-Omniverse/PhysX (the PhysX SDK under CHECKOUT/physx). CMake is the build,
#           which physx/generate_projects.sh runs through packman and
#           buildtools/cmake_generate_projects.py; packman (it downloads its tools and
#           dependencies.xml's packages: clang-physxmetadata, opengl-linux, rapidjson,
#           none of which the GPU libraries use) cannot run here, so the script runs the
#           cmake command that cmake_generate_projects.py writes for the linux-gcc preset
#           (buildtools/presets/public/linux-gcc.xml), its release configuration
#           (compiler/linux-gcc-release): -S physx/compiler/public,
#           -DTARGET_BUILD_PLATFORM=linux -DPX_OUTPUT_ARCH=x86, PHYSX_ROOT_DIR, the
#           output directories (OUTDIR/cmake rather than the checkout: where the libraries
#           would go, in no compile line), CMAKE_CUDA_ARCHITECTURES=80 as for every CMake
#           corpus here (at its default, 75, the line would add a compute_75 -gencode),
#           Ninja as for every CMake corpus (the preset's Unix Makefiles give the same
#           compile lines), and the preset's switches, with two changes:
#           PX_BUILDSNIPPETS and PX_BUILDPVDRUNTIME OFF (the snippets need packman's
#           opengl-linux; neither has a .cu file), and PX_GENERATE_GPU_REDUCED_ARCHITECTURES
#           ON, its own switch (SASS for 80,86,89,90,100,120, PTX 120): its default list
#           starts at sm_70 ("Volta is the minimum", for CUDA 12.8, which its README
#           names), and CUDA 13 dropped sm_70, so nvcc 13 refuses every file at the default
#           list. No -std change: its CUDA flags are -std=c++17 already. Its CUDA flags'
#           -t0 (cmakegpu/CMakeLists.txt: nvcc's --threads 0) stay as the build writes
#           them: warplint's driver drops it since the thirteenth session (before, `unknown
#           argument: '-t0'` stopped every file; the first run wrote it --threads 0). Every .cu under
#           physx/source/ once (gpuarticulation, gpubroadphase, gpucommon, gpunarrowphase,
#           gpusimulationcontroller, gpusolver: the PhysXGpu libraries); omni/'s three
#           .cu files (Omniverse Kit extensions, built by Kit's own tooling, not by the
#           SDK's CMake) are not in it.
#   tensorrt NVIDIA/TensorRT (the open-source plugins, plugin/**/*.cu). CMake is the build,
#           but its CMakeLists need CMake 3.31 (cmake_minimum_required 3.31 FATAL_ERROR,
#           and the plugin targets use $<COMPILE_ONLY:> (3.27) and $<BUILD_LOCAL_INTERFACE:>
#           (3.26)); this machine has 3.25, so the script writes the lines that its configure
#           gives, for the same configuration as the other CMake corpora (Release,
#           CMAKE_CUDA_ARCHITECTURES=80, its defaults otherwise: BUILD_PLUGINS and
#           TRT_BUILD_INCLUDE_BERT_QKV_PLUGIN ON). The line is the one CMake 3.25 writes for a
#           copy of the plugin targets' settings (checked on a small project with the same
#           targets): the top CMakeLists' CMAKE_CUDA_FLAGS (--expt-relaxed-constexpr -Xcompiler
#           -Wno-deprecated-declarations), Release's -O3 -DNDEBUG, trt_plugins' ENABLE_SM80
#           (one -DENABLE_SM<N> per architecture), -I third_party and -I plugin, the
#           imported nvinfer target's include directory as -isystem (TRT_INCLUDE_DIR: no
#           TensorRT package here, so the repository's include/, as its CMakeLists falls
#           back to; the libraries are needed only to link), the toolkit's include
#           (trt_global_definitions, CUDA::cudart_static) as -isystem, its -fPIC, and
#           --expt-relaxed-constexpr again (the target's option); no -std, as no target
#           sets CUDA_STANDARD (CMAKE_CXX_STANDARD 20 is for the .cpp files): nvcc 13's
#           default, C++17. The files are the .cu files that the add_plugin_source(...) of
#           plugin/**/CMakeLists.txt name (47: every .cu under plugin/), each once
#           (roiAlignKernel.cu is compiled a second time for the version-compatible
#           library trt_vc_plugins with -DCOMPILE_VFC_PLUGIN=1; the trt_plugins line is
#           kept). ccache, which CMake would put before nvcc when it finds it, is left out.
#   gromacs gromacs/gromacs (its CUDA backend). CMake is the build, and its CMakeLists.txt
#           asks for CMake 3.28 (cmake_minimum_required and cmake_policy VERSION 3.28); this
#           machine has 3.25, and nothing in its configure of a CUDA build needs more (its
#           one later-version block, gmxManageCuda.cmake's OpenMP::OpenMP_CUDA detection,
#           which puts -Xcompiler=-fopenmp on the .cu lines, is for 3.31 and later: skipped
#           at 3.28 as at 3.25). So the script configures a shadow of the checkout,
#           OUTDIR/source: a symbolic link to each top-level entry of CHECKOUT except
#           CMakeLists.txt, which is CHECKOUT's with those two lines at 3.25 (no other
#           change; no file of the checkout is touched), into OUTDIR/cmake with
#           -DGMX_GPU=CUDA -DGMX_FFT_LIBRARY=fftpack -DGMX_BUILD_OWN_FFTW=OFF (no FFTW here,
#           and its own FFTW build downloads; the CPU FFT is in no .cu line) -DGMX_MPI=OFF
#           (thread-MPI, its default) -DBUILD_TESTING=OFF -DGMX_INSTALL_LEGACY_API=OFF,
#           CMAKE_CUDA_ARCHITECTURES=80 as for every CMake corpus (GMX_CUDA_TARGET_SM=80
#           gives the same line and a deprecation warning) and its defaults otherwise
#           (OpenMP found, GPU FFT cuFFT). The policies 3.26 to 3.28 add (CMP0143-CMP0155)
#           change no CUDA compile line. In the lines, OUTDIR/source/ is written CHECKOUT/
#           (the links' targets). The files: every .cu that this configure compiles with
#           nvcc (30 under src/gromacs: nbnxm/cuda, ewald's PME, mdlib's update, LINCS,
#           SETTLE, force reduction and graphs, listed_forces, domdec's halo exchange, cuFFT,
#           gpu_utils, hardware), once; the tests' .cu files (BUILD_TESTING OFF, and
#           nvshmem_simple_put.cu needs NVSHMEM) and cmake/TestCUDA.cu are not in it. The
#           build's generated headers (config.h, version, buildinfo) stay in OUTDIR/cmake,
#           where the lines' -I name them. Its lines keep -Xptxas=-Werror and the other
#           flags the build gives (-use_fast_math, -std=c++17, -D_FORCE_INLINES).
#   mnn     alibaba/MNN (its CUDA backend, source/backend/cuda). CMake is the build, and its
#           CUDA library is the old FindCUDA's cuda_add_library (MNN_Cuda_Main), for which
#           CMake writes no compile_commands entries: FindCUDA writes, per .cu, a script
#           (CMakeFiles/MNN_Cuda_Main.dir/**/X.cu.o.cmake) that runs nvcc, which build.make
#           calls with `cmake -D ... -P X.cu.o.cmake`. The script configures CHECKOUT into
#           OUTDIR/cmake (the Unix Makefiles generator, no CMAKE_BUILD_TYPE, as MNN's
#           docs/compile build it) with -DMNN_CUDA=ON and the arch by MNN's own switches:
#           -DMNN_CUDA_NATIVE_ARCH=ON -DCUDA_ARCHS=8.0 (CUDA_SELECT_NVCC_ARCH_FLAGS gives
#           one -gencode arch=compute_80,code=sm_80 and -DMNN_CUDA_ENABLE_SM80; at its default
#           OFF the list starts at sm_60, which nvcc 13 refuses), its defaults otherwise,
#           and -DFETCHCONTENT_FULLY_DISCONNECTED=ON: its CMake clones CUTLASS (NVIDIA/cutlass
#           319a389f, v2.9.0, at MNN_SUPPORT_TRANSFORMER_FUSE OFF) into
#           CHECKOUT/3rd_party/cutlass/v2.9.0, which must hold it already (a `git archive`
#           of that commit). Then it runs each .cu's build.make line with a copy of its
#           script in which FindCUDA's cuda_execute_process prints the arguments it would
#           run instead of running them, and keeps the nvcc -c command: the exact argument
#           lists the build gives (CUDA_NVCC_FLAGS -D_FORCE_INLINES -Wno-deprecated-gpu-targets
#           -w --std=c++17 -O3 and the -gencode; FindCUDA's --std c++11 before it, from
#           CMAKE_CXX_STANDARD 11; the add_definitions of the top and the CUDA CMakeLists;
#           the host flags as one -Xcompiler list, with FindCUDA's Debug -g, as
#           build_configuration is empty; the include_directories). The files: the .cu
#           files that MNN_Cuda_Main globs (core/**, execution/**: 67) less what its defaults
#           remove (execution/plugin/**, 6, at MNN_SUPPORT_TRANSFORMER_FUSE OFF;
#           execution/weight_only_quant/**, 1, at MNN_LOW_MEMORY OFF): 60, each once;
#           MNN_CUDA_BF16 and MNN_CUDA_QUANT (OFF) leave out a define, no file. The musa and tensorrt
#           backends are not in it. The checkout is a `git archive` of the commit, less 4
#           blobs the snapshot lacks (iOS app assets and Vulkan's AllShader.cpp).
#   mumax   mumax/3 (its CUDA kernels, cuda/*.cu). cuda/Makefile is the build: its
#           X_wrapper.go rule compiles each cuda/*.cu to PTX once per compute capability in
#           CUDA_CC (a shell loop: `for cc in $(CUDA_CC); do echo <nvcc line>; <nvcc line>;
#           done`), then runs cuda2go (Go) on it. The script runs `make -n -B CUDA_CC=80
#           CUDA_HOME=<nvcc's toolkit> wrappers` in CHECKOUT/cuda (nothing runs: neither Go,
#           cuda2go, gofmt nor nvcc; make itself runs `nvcc --version` for CUDA_VERSION) and
#           keeps, from each loop, the line its echo prints, with $cc as 80: the Makefile's
#           NVCCFLAGS as they come, -std=c++03 (its NVCC_COMPATIBILITY_FLAGS for any CUDA but
#           7.0/7.5/8.0) -ccbin=/usr/bin/gcc --compiler-options -Werror --compiler-options
#           -Wall -Xptxas -O3 -ptx, then -arch=compute_80 -code=sm_80 X.cu -o X_80.ptx, run
#           in CHECKOUT/cuda. -ptx stays: the build makes PTX, which the Go side loads.
#           The files: every cuda/*.cu (the Makefile's $(wildcard *.cu)), once.
#   gpumd   brucefan1983/GPUMD. src/makefile (plain make) is the build: its default
#           target `all` makes the gpumd and nep executables from $(wildcard X/*.cu) of
#           main_gpumd, minimize, phonon, integrate, mc, force, measure, model and
#           utilities (gpumd) and main_nep and utilities (nep); gnep (main_gnep) and the
#           MDI build (makefile_mdi) are not in `all` and are left out. The script runs
#           `make -n -B CC=<nvcc> CUDA_ARCH=-arch=sm_80 gpumd nep` in CHECKOUT/src (the
#           makefile names sm_60) and keeps the nvcc line of each .cu (`-c X.cu`), once
#           (utilities/*.cu are in both): -O3 -arch=sm_80 -Xcompiler=<its warning flags>
#           -I./, run in CHECKOUT/src, with its -std=c++14 made -std=c++17, as for kaldi:
#           CUDA 13's CCCL refuses C++14 and GPUMD's force/*.cu include thrust. No
#           -DUSE_PLUMED (the makefile's note: only with the PLUMED plugin) nor
#           -DUSE_KEPLER (compute capability < 6.0). The checkout is a `git archive` of
#           the commit's src/ and CMakeLists.txt (the snapshot lacks some potentials/ blobs).
#   ccminer tpruvot/ccminer. Autotools is the build (build.sh: autogen.sh, then configure.sh,
#           which sets CUDA_CFLAGS="-O3 -lineno -Xcompiler -Wall -D_FORCE_INLINES" and
#           --with-cuda=/usr/local/cuda, then make). automake is not installed here, so the
#           script writes the lines of Makefile.am's rules itself: every .cu of
#           ccminer_SOURCES once, with the rule Makefile.am gives it (`.cu.o`: nvcc_FLAGS
#           --maxrregcount=128; the per-file rules their own --maxrregcount or flags), nvcc_FLAGS
#           = nvcc_ARCH, -I<toolkit>/include, -I., CUDA_CFLAGS, JANSSON_INCLUDES
#           (-I./compat/jansson: configure's WANT_JANSSON when no libjansson-dev, as here) and
#           --ptxas-options=-v, run in the checkout. Every -gencode (compute_52 in nvcc_ARCH,
#           compute_30/35 in the scrypt rules) is made arch=compute_80,code=sm_80: CUDA 13
#           compiles for sm_75 and later only. configure's config header, which miner.h
#           includes, is written into CHECKOUT/ccminer-config.h with what configure.ac's
#           checks give on this machine (Debian 12, glibc, x86_64): AC_INIT's PACKAGE_*,
#           STDC_HEADERS and the default headers, sys/param.h and syslog.h (no sys/endian.h,
#           and no sys/sysctl.h, gone since glibc 2.32), be32dec/le32dec/be32enc/le32enc
#           not declared (0), alloca and alloca.h, getopt_long. configure also needs
#           libcurl's headers (miner.h includes curl/curl.h): Debian's libcurl4-openssl-dev.
#   autodock ccsb-scripps/AutoDock-GPU. Its Makefile is the build: `make -n -B DEVICE=CUDA
#           NUMWI=64 TARGETS=80 GPU_INCLUDE_PATH=<toolkit>/include
#           GPU_LIBRARY_PATH=<toolkit>/lib64 kernels` (README's DEVICE=CUDA, NUMWI=64 its
#           default for a GPU, TARGETS its list of compute capabilities) gives the one nvcc line
#           (cuda/kernels.cu, which includes the other cuda/*.cu), -std=c++11 made -std=c++17
#           (CUDA 13's CCCL refuses C++14 and earlier), run in the checkout.
#   moderngpu moderngpu/moderngpu (the header-only library, through its demos, tutorials
#           and tests, every .cu of which its CMake builds by default). CMake is the build:
#           configured into OUTDIR/cmake as every CMake corpus here. Its targets take
#           CUDA_ARCHITECTURES from the library's property (60 61 70 75 80), not from
#           CMAKE_CUDA_ARCHITECTURES, and CUDA 13 compiles for sm_75 and later only, so
#           each line's --generate-code options are made one, for 80 (as PhysX's
#           architecture list is cut). Every .cu of the checkout once.
#   tcnn    NVlabs/tiny-cuda-nn (6ee3546b). CMake is the build: configured into OUTDIR/cmake
#           with Ninja, -DCMAKE_BUILD_TYPE=Release, -DCMAKE_CUDA_ARCHITECTURES=80 and its own
#           architecture variable -DTCNN_CUDA_ARCHITECTURES=80 (without it the configure
#           try_runs a GPU probe and, with no GPU, builds for "75;86"; an environment
#           variable TCNN_CUDA_ARCHITECTURES would override both, so the script unsets it),
#           -DTCNN_BUILD_EXAMPLES=OFF and -DTCNN_BUILD_BENCHMARK=OFF (both ON by default:
#           samples/mlp_learning_an_image.cu, benchmarks/image/bench_ours.cu and
#           benchmarks/mlp/bench_mlp_ours.cu, programs that use the library) and
#           TCNN_BUILD_TESTS at its default OFF. Everything else stays at its default:
#           TCNN_BUILD_WITH_RTC ON (-DTCNN_RTC), fast math ON, half precision ON (min arch
#           80), cuBLAS/Shampoo OFF. Configure only. The three submodules are put into the
#           checkout at the commits the tree records, from `git archive` of stored copies
#           (no network): dependencies/cutlass = NVIDIA/cutlass 82f50759 (all of it but one
#           PNG the snapshot lacks), dependencies/fmt = fmtlib/fmt fa2eb2d2 (fmt 9.0.0; its
#           CMakeLists builds the fmt target; no Debian libfmt stand-in), dependencies/cmrc =
#           vector-of-bool/cmrc 952ffddb (CMakeRC.cmake, which the top CMakeLists includes
#           whatever TCNN_BUILD_WITH_RTC says; rtc_kernel.cu includes <cmrc/cmrc.hpp>, which
#           the configure writes into OUTDIR/cmake/_cmrc/include). tiny-cuda-nn's own tree is
#           the commit less data/readme/10.jpg (absent from the snapshot). No change to any
#           file or flag: the line is -std=c++17 already and CUDA 13 takes arch 80. Every
#           .cu that nvcc compiles (src/*.cu: the 11 files of the tiny-cuda-nn library, with
#           fully_fused_mlp.cu since the min arch is above 70); the host C++ files (fmt's
#           format.cc/os.cc, cmrc's generated resource .cpp files) are not in it. The
#           lines keep the -isystem=<dir> list that tiny-cuda-nn's CMakeLists adds whenever
#           CMAKE_EXPORT_COMPILE_COMMANDS is on (CMAKE_CUDA_STANDARD_INCLUDE_DIRECTORIES =
#           the implicit include directories: CUDA's include/cccl, g++ 12's C++ headers,
#           /usr/local/include, /usr/include), as its build writes them.
#   xmrig-cuda xmrig/xmrig-cuda (01d53486). CMake is the build, and its CUDA library, xmrig-cu,
#           is FindCUDA's cuda_add_library, for which CMake writes no compile_commands entries
#           (as for mnn). The script configures CHECKOUT into OUTDIR/cmake (Unix Makefiles)
#           with -DCMAKE_BUILD_TYPE=Release, -DCUDA_TOOLKIT_ROOT_DIR=<nvcc's toolkit>, its own
#           arch list -DCUDA_ARCH=80 (its default starts at 50, which nvcc 13 refuses; each
#           entry gives the pair --generate-code arch=compute_80,code=sm_80 and
#           ...,code=compute_80) and
#           -DCUDA_LIB=<toolkit>/lib64/stubs/libcuda.so (no driver library here; only the link
#           uses it), its defaults otherwise (WITH_DRIVER_API; CN_R, CN_LITE, CN_HEAVY, CN_PICO,
#           CN_FEMTO, RANDOMX and KAWPOW ON; XMRIG_LARGEGRID ON). Configure only. Each line is
#           put together from what the script FindCUDA writes per .cu sets
#           (CMakeFiles/xmrig-cu.dir/**/xmrig-cu_generated_X.cu.o.Release.cmake): nvcc, its
#           nvcc_flags (-m64 and FindCUDA's --std c++11, from CMAKE_CXX_STANDARD 11), -D of
#           each compile definition and -I of each include directory (each once), -Xcompiler
#           and the host flags (CMAKE_HOST_FLAGS, then Release's, comma-joined), its
#           CUDA_NVCC_FLAGS split at ; and spaces (--threads 0, the --generate-code pair and
#           --default-stream per-thread, one string each in the build, become separate
#           arguments), then -x cu -c X.cu -o X.cu.o, run in OUTDIR/cmake. That is not
#           FindCUDA's order (source, -c -o, the flags, -DNVCC, the -I last), and its -ccbin
#           /usr/bin/cc and -DNVCC (which no file reads) are not in it. One change: --std c++11
#           is made --std c++17 (CUDA 13's CCCL refuses C++14 and earlier). The files: the 9
#           .cu of xmrig-cu (src/cuda_core.cu, src/cuda_extra.cu, src/RandomX/**, KawPow's
#           raven/KawPow.cu), each once; src/CryptonightR.cu is no target's source (NVRTC
#           compiles it at run time: CudaCryptonightR_gen.cpp includes it as a string). The
#           checkout is a `git archive` of the commit.
#   sundials LLNL/sundials (c8dabcea, its CUDA modules and CUDA examples). CMake is the build:
#           configured into OUTDIR/cmake as every CMake corpus here (Ninja, Release,
#           CMAKE_CUDA_ARCHITECTURES=80, compile_commands.json), configure only, with
#           -DENABLE_CUDA=ON and -DSUNDIALS_INDEX_SIZE=32 (its default is 64, and
#           SUNMATRIX_CUSPARSE and SUNLINSOL_CUSOLVERSP are built only with 32-bit indices);
#           its other options at their defaults (examples on, unit tests and benchmarks off).
#           Every .cu under the checkout once: src/nvector/cuda/nvector_cuda.cu,
#           src/sunmatrix/cusparse/sunmatrix_cusparse.cu,
#           src/sunlinsol/cusolversp/sunlinsol_cusolversp_batchqr.cu,
#           src/sunmemory/cuda/sundials_cuda_memory.cu and the five examples of
#           examples/cvode/cuda and examples/ida/cuda. Its -std=c++14 (CMAKE_CUDA_STANDARD
#           from its CXX standard) is kept: nvcc 13 preprocesses all nine files at C++14.
#   thundergbm Xtra-Computing/thundergbm (e3f824e4). CMake is the build, its library (target
#           thundergbm) FindCUDA's cuda_add_library, as for thundersvm: configured into
#           OUTDIR/cmake (Unix Makefiles) with -DCMAKE_BUILD_TYPE=Release
#           -DCUDA_TOOLKIT_ROOT_DIR=<toolkit>, its defaults otherwise (BUILD_TESTS OFF);
#           configure only; each line put together from
#           src/thundergbm/CMakeFiles/thundergbm.dir/**/thundergbm_generated_X.cu.o.Release.cmake
#           as for thundersvm, with the same two changes: -std=c++14 out, -std=c++17 (CUDA 13's
#           CCCL refuses C++14) and -arch=sm_80 (its build names no architecture) after its
#           flags. Its `cub` submodule (NVlabs/cub 39882463, a CUB 1.8 of 2019) is left empty,
#           as a clone without submodules has it: with it on the -I path nvcc 13 stops every
#           file at thrust's "#error The version of CUB in your include path is not compatible
#           with this release of Thrust. CUB is now included in the CUDA Toolkit", so the
#           toolkit's cub is used (the -I of the empty folder stays). The files: the 17 .cu of
#           src/thundergbm (builder/, metric/, objective/ and the top folder), each once; the
#           train and predict executables have .cpp files only, src/test is off.
#   vanitysearch JeanLucPons/VanitySearch (c8d48ce5). Its Makefile is the build, as for
#           Kangaroo: `make -n -B gpu=1 CCAP=8.0 CUDA=<toolkit> CXXCUDA=g++
#           obj/GPU/GPUEngine.o` (its README's `make gpu=1 CCAP=...`; CUDA and CXXCUDA default
#           to /usr/local/cuda-8.0 and g++-4.8), the nvcc line of its one .cu, GPU/GPUEngine.cu.
#   gomc    GOMC-WSU/GOMC (785c2ceb, its GPU code). CMake is the build: configured into
#           OUTDIR/cmake as every CMake corpus here (Ninja, Release, compile_commands.json),
#           configure only, its defaults otherwise (GOMC_GTEST and MPI off). Its
#           CMake/GOMCCUDASetup.cmake sets CMAKE_CUDA_ARCHITECTURES to `all` (CMake >= 3.23)
#           over the cache's 80, so its `-arch=all` is made `-arch=sm_80`. The four ensemble
#           executables (GPU_NVT, GPU_GEMC, GPU_GCMC, GPU_NPT: -DENSEMBLE=1..4) compile the
#           same six src/GPU/*.cu (ENSEMBLE changes only host allocation sizes there); the
#           database is GPU_NVT's line of each, the first target.
#   thundersvm Xtra-Computing/thundersvm (5c6a056a). CMake is the build, and its library (target
#           thundersvm) is FindCUDA's cuda_add_library, as for xmrig-cuda: configured into
#           OUTDIR/cmake (Unix Makefiles) with -DCMAKE_BUILD_TYPE=Release
#           -DCUDA_TOOLKIT_ROOT_DIR=<toolkit>, its defaults otherwise (USE_CUDA ON, USE_DOUBLE
#           and BUILD_TESTS OFF); configure only. It writes OUTDIR/cmake/thundersvm/config.h
#           (DATASET_DIR, USE_CUDA), which the lines reach through -I OUTDIR/cmake. Each line is
#           put together as for xmrig-cuda, from CMakeFiles/thundersvm.dir/kernel/
#           thundersvm_generated_X.cu.o.Release.cmake (-m64 -Dthundersvm_EXPORTS
#           -DELPP_NO_LOG_TO_FILE; -I of the toolkit's include, include/ and OUTDIR/cmake;
#           -Xcompiler -D_MWAITXINTRIN_H_INCLUDED,-D_FORCE_INLINES,-fPIC,-O3,-DNDEBUG;
#           -Wno-deprecated-gpu-targets), with two changes: the -std=c++14 of its CUDA_NVCC_FLAGS
#           is dropped and -std=c++17 (CUDA 13's CCCL refuses C++14) and -arch=sm_80 (the build
#           names no architecture, so nvcc's default would be used) follow them. The files:
#           src/thundersvm/kernel/*.cu (kernelmatrix_kernel.cu, smo_kernel.cu), each once;
#           thundersvm-train and -predict (cuda_add_executable) have .cpp files only. The
#           checkout is a `git archive` of the commit.
#   bitsandbytes bitsandbytes-foundation/bitsandbytes (95f9af30, its CUDA backend). CMake is
#           the build: configured into OUTDIR/cmake as every CMake corpus here, with
#           -DCOMPUTE_BACKEND=cuda and its own arch variable -DCOMPUTE_CAPABILITY=80, from
#           which its CMakeLists sets CMAKE_CUDA_ARCHITECTURES to 80 (one --generate-code for
#           compute_80/sm_80) and adds csrc/gemm_4bit_sm80.cu with -DBNB_HAS_GEMM4BIT_SM80
#           (for an arch of 80 or more); csrc/gemm_4bit_sm75.cu is built only when 75 is in
#           the list and is not in it. Configure only. Every .cu of csrc/ that CMake compiles
#           (ops.cu, kernels.cu, gemm_4bit_simt.cu, gemm_4bit.cu, gemm_4bit_sm80.cu), once, as
#           its build writes them: -DBUILD_CUDA, -I csrc, --use_fast_math,
#           --compress-mode=size (for CUDA 13 and later), -std=c++17 (CMAKE_CUDA_STANDARD) and
#           -rdc=true (CUDA_SEPARABLE_COMPILATION); no change to any flag. The checkout is a
#           `git archive` of the commit.
#   hoomd   glotzerlab/hoomd-blue (967b6a43, v4.8.2 and later). CMake is the build: configured
#           into OUTDIR/cmake as every CMake corpus here, with -DENABLE_GPU=ON (its
#           HOOMD_GPU_PLATFORM stays CUDA, the default), its own arch variable
#           -DCUDA_ARCH_LIST=80 (default "60 70 80"; HOOMDCUDASetup.cmake turns it into
#           CMAKE_CUDA_ARCHITECTURES 80-real;80-virtual, which wins over the cache entry, so
#           each line has the --generate-code pair sm_80 and compute_80), -DBUILD_TESTING=OFF
#           (hoomd/test/*.cu are unit tests) and its defaults otherwise (MD, HPMC, METAL and
#           MPCD on, the example plugins of example_plugins/ found, no MPI here). Configure
#           only. Its CMake needs pybind11 >= 2.12 and Eigen 3 (find_package ... CONFIG
#           REQUIRED; host code only, no .cu includes pybind11): Debian's pybind11-dev
#           (2.10.3) and libeigen3-dev. For the version, the script writes
#           OUTDIR/pybind11-shim (a pybind11Config.cmake that includes Debian's
#           /usr/lib/cmake/pybind11/pybind11Config.cmake, and a pybind11ConfigVersion.cmake
#           that says 2.12.0, compatible) and passes -Dpybind11_DIR=OUTDIR/pybind11-shim.
#           The submodules are put into CHECKOUT/hoomd/extern at the commits the tree records,
#           from `git archive` of stored copies (no network): HIP = glotzerlab/HIP d211f99e,
#           hipCUB = glotzerlab/hipCUB c70e1933, hipper = mphowardlab/hipper b6da049a,
#           neighbor = mphowardlab/neighbor ba0f0686, random123 = glotzerlab/random123
#           a2c4f04f, upp11 = glotzerlab/upp11 0c1fb8df, nano-signal-slot =
#           glotzerlab/nano-signal-slot 34223a4a; quickhull (recorded 1ffbc6f8, which the
#           stored glotzerlab/quickhull does not hold) is that copy's HEAD, 22bc4e70: host
#           code, which no .cu includes. The files: every .cu that the configure compiles
#           with nvcc, once, both those of the checkout and the instances the configure
#           writes into OUTDIR/cmake (configure_file of the *.cu.inc templates, one per
#           potential, shape or evaluator: the only places that instantiate the kernels of
#           the .cuh headers, so they are kept). One change: CMAKE_CUDA_STANDARD 14's
#           -std=c++14 is made -std=c++17, as for kaldi: CUDA 13's CCCL refuses C++14. The
#           checkout is a `git archive` of the commit.
#   opencv_contrib opencv/opencv_contrib (2a5154a4, its CUDA modules: modules/cuda* and
#           modules/cudev). OpenCV's CMake builds these modules only from inside an
#           opencv/opencv tree (OPENCV_EXTRA_MODULES_PATH), and that repository is too large
#           to fetch here, so the script writes each line itself, after what OpenCV's
#           cmake/OpenCVDetectCUDA.cmake and the module CMakeLists give a Release CUDA build
#           for CUDA_ARCH_BIN 8.0: nvcc -gencode arch=compute_80,code=sm_80
#           -std=c++17 --expt-relaxed-constexpr -O3 -DNDEBUG -D__OPENCV_BUILD=1
#           -DCVAPI_EXPORTS -Xcompiler -fPIC, then -I of OUTDIR/gen, of the module's src and
#           src/cuda, of every CUDA module's include (sorted by name) and of Debian's
#           /usr/include/opencv4 (libopencv-dev, OpenCV 4.6.0: its core, imgproc,
#           features2d, video and opencv2/core/cuda headers stand in for opencv/opencv's,
#           4.13-era like the contrib tree), -c X.cu -o OUTDIR/obj/<module>/X.cu.o, run in
#           CHECKOUT/modules/<module>. OUTDIR/gen holds what OpenCV's CMake would generate,
#           written by the script: cvconfig.h (HAVE_CUDA, HAVE_CUBLAS, HAVE_CUFFT,
#           CUDA_ARCH_BIN and CUDA_ARCH_FEATURES " 80", CUDA_ARCH_PTX ""), cv_cpu_config.h
#           (the x86_64 baseline, CV_CPU_COMPILE_ and CV_CPU_BASELINE_COMPILE_ SSE, SSE2 and
#           SSE3, no dispatched features) and opencv2/opencv_modules.hpp (Debian's, with a
#           HAVE_OPENCV_<MODULE> for each contrib CUDA module put before its #endif); and two
#           source headers of opencv/opencv that Debian does not install, copied unchanged
#           from --opencv-headers DIR (which holds them under their base names) or already
#           in place: modules/core/include/opencv2/core/private.cuda.hpp at 00e7816c, to
#           OUTDIR/gen/opencv2/core/private.cuda.hpp, and
#           modules/core/include/opencv2/core/cuda/cuda_compat.hpp at 0fb66ee7 (the CUDA 13
#           shim for double4_16a and ulonglong4_16a), to
#           OUTDIR/gen/opencv2/core/cuda/cuda_compat.hpp. The files: every
#           modules/<module>/src/cuda/*.cu (120), once; cudev/test/** (tests) is not in it.
#           The checkout is a `git archive` of the commit's modules/cuda* and modules/cudev.
#   dlib    davisking/dlib (3d40bf57). CMake is the build: the library's own CMakeLists
#           (CHECKOUT/dlib, as `cmake dlib` builds it) configured into OUTDIR/cmake as every
#           CMake corpus here, with -DDLIB_USE_CUDA=ON (cuDNN 9 is found under
#           /usr/local/cuda, so CUDA stays on) and its defaults otherwise (BLAS, LAPACK, JPEG,
#           PNG and WebP as found, no FFmpeg). Configure only. What it finds shows in the
#           lines' defines: with Debian's reference libblas-dev/liblapack-dev only,
#           -DLAPACK_FORCE_UNDERSCORE (sgesv_ found); with libopenblas-dev (caffe's) and
#           libwebp-dev (libopencv-dev's, opencv_contrib's) installed as well, as here, it
#           takes OpenBLAS's LAPACK (no -DLAPACK_FORCE_UNDERSCORE) and adds
#           -DDLIB_WEBP_SUPPORT. Every .cu it compiles (dlib/cuda/cuda_dlib.cu and
#           dlib/cuda/cusolver_dlibapi.cu), once, as its build writes them: already
#           -std=c++17 and arch 80, no change. The checkout is a `git archive` of the commit.
#   caffe   BVLC/caffe (9b891540). Its Makefile is the build, reading Makefile.config. Before
#           this script: apt-get install libboost-dev libboost-system-dev libboost-thread-dev
#           libgoogle-glog-dev libgflags-dev libprotobuf-dev protobuf-compiler libhdf5-dev
#           libopenblas-dev; in the checkout, cp Makefile.config.example Makefile.config,
#           set in it (the file INSTALL.md says to edit) USE_OPENCV := 0, USE_LEVELDB := 0
#           and USE_LMDB := 0 (none installed), CUDA_ARCH := -gencode
#           arch=compute_80,code=sm_80 (the example's sm_20-sm_61, which nvcc 13 refuses),
#           BLAS := open, and /usr/include/hdf5/serial added to INCLUDE_DIRS
#           (/usr/lib/x86_64-linux-gnu/hdf5/serial to LIBRARY_DIRS; Debian's HDF5 place, as
#           its comments say for Ubuntu); USE_CUDNN stays off (its layers are for cuDNN 5-7,
#           not the cuDNN 9 here); then `make proto` (protoc writes
#           .build_release/src/caffe/proto/caffe.pb.h, which every .cu reaches through
#           caffe/common.hpp). The script runs `make -n -B CUDA_DIR=<nvcc's toolkit> lib`
#           in the checkout and keeps the nvcc -c line of each .cu (src/caffe/layers,
#           util and solvers: 63), once, less its `2> X.o.warnings.txt` redirect, run in the
#           checkout, with -std=c++17 put after nvcc: the Makefile gives no -std, so nvcc
#           13's default, C++17, is what it compiles; the option writes it out. The
#           checkout is a `git archive` of the commit.
#   popsift alicevision/popsift (4b4b2478). CMake is the build, through FindCUDA
#           (cuda_add_library: no compile_commands entry), configured into OUTDIR/cmake as
#           xmrig-cuda and thundersvm are (Unix Makefiles, Release, configure only) with
#           -DPopSift_CUDA_CC_LIST=80 (its own arch list: -gencode arch=compute_80,code=sm_80
#           and compute_80 for JIT) and -DPopSift_BUILD_EXAMPLES=OFF (src/application: host
#           programs, needing Boost's filesystem and program_options); the line of each .cu
#           of the popsift target (27) is put together from FindCUDA's per-file script,
#           with -dc where the build has it (CUDA_SEPARABLE_COMPILATION ON: the scripts'
#           format_flag). Its -std=c++14
#           (PopSift_CXX_STANDARD 14, in CUDA_NVCC_FLAGS and, through CMAKE_CXX_FLAGS, in
#           the -Xcompiler host flags) is made -std=c++17 in both: CUDA 13's Thrust and
#           libcu++ refuse C++14 ("Thrust requires at least C++17", nvcc 13 on
#           s_filtergrid.cu). Two files do not compile with nvcc 13 even so, the code's
#           own: s_extrema.cu includes texture_fetch_functions.h, which CUDA 13 removed,
#           and s_filtergrid.cu defines an empty nvtxRangePop() macro before its Thrust
#           includes (CUDA 13's CCCL includes nvtx3) and uses thrust::identity (removed in
#           CCCL 3). The checkout is a `git archive` of the commit.
#   sputnik google-research/sputnik (bbf5840b). CMake is the build (native CUDA language,
#           cmake_policy CMP0104 OLD: no CMAKE_CUDA_ARCHITECTURES; its own CUDA_ARCHS
#           variable writes `-gencode arch=compute_N,code=sm_N`), configured into
#           OUTDIR/cmake as every CMake corpus here (Ninja, Release, configure only) with
#           -DCUDA_ARCHS=80 and no -DCMAKE_CUDA_ARCHITECTURES (which would add a second
#           --generate-code to the line); BUILD_TEST and BUILD_BENCHMARK stay at their
#           default OFF (their abseil, googletest and benchmark submodules are not needed).
#           Glog is Debian's (libgoogle-glog-dev). cmake/Dependencies.cmake's
#           find_library(... cublas_static REQUIRED) and cusparse_static stop the configure
#           here (the toolkit has only the shared cuBLAS and cuSPARSE): -DCUBLAS_LIBRARY and
#           -DCUSPARSE_LIBRARY name the shared ones, which only the link would use. Its
#           CUDA sources are .cu.cc files given LANGUAGE CUDA; the files: every .cu.cc of
#           the library target (spmm, sddmm, depthwise, bias_relu, softmax, sparse_softmax,
#           utils/index_format: 7), once, as its build writes them (-std=c++11 from
#           CMAKE_CXX_STANDARD 11 kept: nvcc 13 compiles all 7 with it). The checkout is a
#           `git archive` of the commit.
#   cusz    szcompressor/cuSZ (d3cde38a). CMake is the build (PSZ_BACKEND CUDA, its
#           default), configured into OUTDIR/cmake as every CMake corpus here with
#           -DBUILD_TESTING=OFF and -DPSZ_BUILD_EXAMPLES=OFF (tests and examples), and
#           -DCUDA_nvml_LIBRARY=/nonexistent/libnvidia-ml.so: no NVML library is installed
#           here, so CMake 3.25's FindCUDAToolkit makes no CUDA::nvml and the generate step
#           fails on psz_cu_utils' target_link_libraries (the path is for the link only;
#           nvml.h, which psz/src/utils/verinfo.cu includes, is not installed either, so
#           nvcc 13 fails that one file here: "nvml.h: No such file or directory"). Every
#           .cu of the library targets (psz/src/stat, psz/src/kernel, psz/src/utils,
#           codec/fzg/src, codec/hf/src: 21), once, as its build writes them (-std=c++17
#           and arch 80 already). The checkout is a `git archive` of the commit.
#   cuszp   szcompressor/cuSZp (6ab90a55). CMake is the build (native CUDA), configured
#           into OUTDIR/cmake as every CMake corpus here (Ninja, Release, configure only).
#           Its CMakeLists sets CMAKE_CUDA_ARCHITECTURES 60 61 62 70 75 80 86 itself (a
#           normal variable: -DCMAKE_CUDA_ARCHITECTURES=80 does not reach it), so each line
#           has seven --generate-code options; nvcc 13 refuses sm_60-sm_72, so the script
#           keeps only --generate-code=arch=compute_80,code=[compute_80,sm_80]. Every .cu
#           of the library (src/*.cu: 15), once (the static target's line; the shared
#           target compiles the same files with -fPIC), as its build writes them
#           (-std=c++17 and -rdc=true kept). The checkout is a `git archive` of the commit.
#   cudasift Celebrandil/CudaSift (5bc874af). CMake is the build, through FindCUDA
#           (cuda_add_executable: no compile_commands entry), configured into OUTDIR/cmake
#           as popsift is (Unix Makefiles, Release, configure only; OpenCV from Debian's
#           libopencv-dev, which find_package(OpenCV REQUIRED) needs); the line of each .cu
#           of the cudasift target (cudaImage.cu, cudaSiftH.cu, which #includes
#           cudaSiftD.cu, and matching.cu: 3; match.cu is in no target) is put together from
#           FindCUDA's per-file script. Two of its flags are changed: -arch=sm_35 (in
#           CUDA_NVCC_FLAGS' OPTIONS and the target's OPTIONS), which nvcc 13 refuses, is
#           made -arch=sm_80, and `-ccbin /usr/bin/gcc-6` (UNIX's CUDA_NVCC_FLAGS; no gcc-6
#           here) is left out, so nvcc uses its default host compiler. The checkout is a
#           `git archive` of the commit less data/ (the snapshot lacks its image blobs).
#   cupdlpx MIT-Lu-Lab/cuPDLPx (4ab50eeb). Its Makefile is the build (README: `make build`;
#           the CMakeLists is for the pybind11 module). Before this script, in the
#           checkout: make CUDA_HOME=<toolkit> build/generated/version.h (sed writes the
#           header utils.cu includes). The script runs `make -n -B NVCC=<nvcc>
#           CUDA_HOME=<toolkit> build/solver.o build/utils.o` and keeps the nvcc line of the
#           two .cu files (cupdlpx/solver.cu, cupdlpx/utils.cu), with its five -gencode
#           pairs (sm_75, 80, 86, compute_80 for sm_89, 90: its own fixed list) cut to
#           -gencode arch=compute_80,code=sm_80, the arch of every corpus here. The
#           checkout is a `git archive` of the commit.
#   cudpp   cudpp/cudpp (9dc7357e, v2.3). CMake is the build, through FindCUDA (cuda_add_library
#           cudpp and cudpp_hash: no compile_commands entry), configured into OUTDIR/cmake as
#           popsift is (Unix Makefiles, Release, configure only), its defaults otherwise
#           (static libraries, CUDPP_BUILD_APPLICATIONS OFF); the configure writes
#           include/cudpp_config.h and apps/common/include/common_config.h into the checkout
#           (configure_file). The line of each .cu of the two targets is put together from
#           FindCUDA's per-file script. Its arch options, which nvcc 13 refuses, are made arch 80
#           in the same shape: cudpp's OPTIONS ${GENCODE} (CUDPP_GENCODE_SM30 ON by default:
#           -gencode=arch=compute_30,code=sm_30 -gencode=arch=compute_30,code=compute_30) and
#           cudpp_hash's ${GENCODE_SM20} (compute_20/sm_20) become
#           -gencode=arch=compute_80,code=sm_80 -gencode=arch=compute_80,code=compute_80. No -std
#           (nvcc 13's default, C++17). The submodules are put into CHECKOUT/ext at the commits
#           the tree records, from `git archive` of stored copies (no network):
#           ext/moderngpu = moderngpu/moderngpu b6b3ed52; ext/cub = NVlabs/cub 9c335b9a, which
#           the stored copy does not hold: its history was rewritten and cub/block/block_scan.cuh
#           purged from every commit before 7ba78ae3 ("Replace purged file from branch", CUB 1.6.4,
#           2017-08-13), so CUB 1.6.4 (7ba78ae3), the nearest commit to cudpp's "update cub
#           submodule to the latest commit" (2016-10-30, CUB 1.6.2/1.6.3 then) that holds every file.
#           Three files (radixsort_app.cu, sa_app.cu, multisplit_app.cu) include that CUB, and nvcc
#           13 fails them: CCCL 3's thrust stops at its #error on a foreign CUB
#           (thrust/system/cuda/config.h:91) and, past it, CUB 1.6's texture references (removed in
#           CUDA 12). The files: the .cu of cudpp (src/cudpp/app/*.cu: 14) and of
#           cudpp_hash (src/cudpp_hash/*.cu: 5), each once; moderngpu's
#           ext/moderngpu/src/mgpucontext.cu, which the cudpp target also compiles (the
#           submodule's code, not cudpp's), and the apps (off) are not in it. The checkout is a
#           `git archive` of the commit.
#   zfp     LLNL/zfp (da9a8349, its CUDA backend). CMake is the build: -DZFP_WITH_CUDA=ON, which
#           compiles src/cuda_zfp/cuZFP.cu through FindCUDA's cuda_wrap_srcs(zfp OBJ ...
#           OPTIONS ${CMAKE_CUDA_FLAGS}) (no compile_commands entry), configured into
#           OUTDIR/cmake as popsift is (Unix Makefiles, Release, configure only) with the arch by
#           its own pass-through, -DCMAKE_CUDA_FLAGS=-arch=sm_80 (without it, no arch on the line:
#           nvcc's default), and -DBUILD_TESTING=OFF (tests/ fetch googletest); its defaults
#           otherwise. The line of cuZFP.cu (the one .cu: it includes the encode/decode 1-3D
#           kernels) is put together from FindCUDA's per-file script (-DZFP_ROUNDING_MODE=
#           ZFP_ROUND_NEVER and -DZFP_WITH_CUDA, the directory's compile definitions, -I include and
#           the toolkit's, -Xcompiler -fPIC,-O3,-DNDEBUG). No -std (nvcc 13's default, C++17). The
#           checkout is a `git archive` of the commit.
#   libsgm  fixstars/libSGM (e4c669bb). CMake is the build (native CUDA language),
#           configured into OUTDIR/cmake as every CMake corpus here (Ninja, Release,
#           configure only) with -DCMAKE_CUDA_ARCHITECTURES=80 (its CMakeLists sets its own
#           list 52;61;72;75;86 only when that is not defined); ENABLE_SAMPLES, ENABLE_TESTS
#           and BUILD_OPENCV_WRAPPER at their default OFF. Its configure writes
#           include/libsgm_config.h into the checkout (configure_file). Every .cu of the sgm
#           target (src/*.cu: 7), once, as its build writes them (-std=c++17 from
#           cxx_std_17, -lineinfo, arch 80). The checkout is a `git archive` of the commit.
#   relion  3dem/relion (73f0a3c0). CMake is the build, through FindCUDA (cuda_add_library:
#           no compile_commands entry). Before this script: apt-get install libopenmpi-dev
#           libfftw3-dev (find_package(MPI REQUIRED); FFTW, else its CMake downloads and
#           builds its own). Configured into OUTDIR/cmake as popsift is (Unix Makefiles,
#           Release, configure only) with -DCUDA=ON -DCUDA_ARCH=80 (its own arch variable:
#           -arch=sm_80), -DGUI=OFF (no FLTK/X11 needed for the .cu files) and
#           -DFETCH_WEIGHTS=OFF (its configure would download model weights). The line of
#           each .cu of the relion_gpu_util target (src/acc/cuda/*.cu and
#           src/acc/cuda/cuda_kernels/*.cu: 8) and of relion_jaz_gpu_util
#           (src/jaz/cuda/*.cu: 1) is put together from FindCUDA's per-file script, with the
#           script's CUDA_NVCC_FLAGS_RELEASE appended after CUDA_NVCC_FLAGS as FindCUDA's
#           script does for a Release build (cmake/BuildTypes.cmake's -arch=sm_80
#           --ptxas-options=-warn-double-usage -D__INTEL_COMPILER --default-stream
#           per-thread --std=c++17 --disable-warnings), the build's line as it is. Its
#           -D__INTEL_COMPILER (BuildTypes.cmake: to keep fftw3.h's __float128 declarations
#           from nvcc) made CUDA 13's CCCL take the host compiler for Intel's classic one
#           under a clang front end and stop with "CUDA compiler and CUDA toolkit headers are
#           incompatible" (cuda_toolkit.h:39) before warplint read CCCL's compiler detection
#           with the macro hidden (driver/headers/warplint_cuda_compat.h): warplint 049ba0d
#           analysed 5 of the 9 files, all 5 with errors, and failed 4, which nvcc 13
#           compiles. The checkout is a `git archive` of the commit.
#   jetson-utils  dusty-nv/jetson-utils (fae4b425). CMake is the build, through FindCUDA
#           (its own cuda/FindCUDA.cmake; cuda_add_library(jetson-utils SHARED ...): no
#           compile_commands entry). Configured into OUTDIR/cmake as popsift is (Unix Makefiles,
#           Release, configure only) with -DCUDA_NVCC_FLAGS=-arch=sm_80 (on x86_64 its
#           CMakeLists adds no -gencode: nvcc's default arch otherwise, to which it appends
#           -O3), -DCUDA_nppicc_LIBRARY=/nonexistent/libnppicc.so (NPP is not here; a link
#           library only), and its Python bindings (.cpp only) off: without one of the
#           Pythons it lists (2.7 3.6 3.7 3.8 3.10 3.12 on Debian 12) its
#           `if(NOT ${PYTHONLIBS_FOUND})` expands to `if(NOT )`, falls through and adds the
#           target jetson-utils-python- once per version, which stops the configure; so
#           -DCMAKE_DISABLE_FIND_PACKAGE_PythonLibs=TRUE and a CMAKE_PROJECT_INCLUDE file the
#           script writes into OUTDIR (set(PYTHONLIBS_FOUND FALSE)) make each version return
#           as a missing Python does. The line of each cuda/*.cu of the jetson-utils target
#           (17) is put together from FindCUDA's per-file script (--std c++11 -m64, its
#           include directories: the build tree's copies of its headers, GStreamer's and
#           GLib's, the toolkit's; -Xcompiler -Wno-write-strings,-fPIC,-O3,-DNDEBUG;
#           -arch=sm_80 -O3). The checkout is a `git archive` of the commit.
#   kangaroo  JeanLucPons/Kangaroo (37576c82). Its Makefile is the build: `make -n -B gpu=1
#           ccap=80 CUDA=<the toolkit> CXXCUDA=g++ obj/GPU/GPUEngine.o` and the nvcc line of
#           GPU/GPUEngine.cu (the one .cu: it includes GPUCompute.h and GPUMath.h) as it
#           prints it; ccap is its arch variable (given on make's command line), CUDA its
#           toolkit (default /usr/local/cuda-8.0) and CXXCUDA its -ccbin (default
#           /usr/bin/g++-4.8, absent here). No -std (nvcc 13's default, C++17). The checkout
#           is a `git archive` of the commit.
#   tnn     Tencent/TNN (f0cb0812). CMake is the build: configured into OUTDIR/cmake with
#           -DTNN_CUDA_ENABLE=ON (TensorRT, TNN_TENSORRT_ENABLE, left OFF: a separate target,
#           source/tnn/network/tensorrt; no .cu of the CUDA backend includes TensorRT's
#           headers), CUDNN_ROOT_DIR=/usr/local/cuda in the environment (its
#           source/tnn/device/cuda/CMakeLists.txt stops without it; cudnn.h is CUDA 13's),
#           Ninja, Release, -DCMAKE_CUDA_ARCHITECTURES=80, configure only. Every .cu of the
#           TNNCuda target (source/tnn/device/cuda/*.cu and acc/*.cu: 108; the bundled
#           thirdparty/cub-1.9.10-1 has none in the target) once. Its hard-coded TARGET_ARCH
#           (-gencode pairs for compute_75/70/61/60/53) is dropped: CUDA 13 knows no arch
#           below 75, and CMake's --generate-code=arch=compute_80 stays. Its -std=c++11
#           (CUDA_STANDARD 11) is made -std=c++17, as for kaldi: the .cu files use the
#           bundled cub 1.9.10 (-I before CUDA's own), but the four that include thrust
#           (acc/cuda_arg_max_or_min, cuda_detection_output_layer_acc_kernel,
#           cuda_instance_norm, cuda_layer_norm) reach CUDA 13's CCCL, which refuses C++11:
#           nvcc 13 fails on them at c++11 ("Thrust requires at least C++17"), and warplint
#           c5ab806 failed them too (104 analysed, 4 failed). At c++17 warplint analyses all
#           108, those four with errors: the bundled cub 1.9.10's device dispatch does not
#           fit CUDA 13's thrust (cuda_cub::launcher gone, texture references gone), and
#           nvcc 13 fails on them at c++17 too. acc/cuda_lstm_layer_acc.cu
#           uses cuDNN 7 RNN calls (cudnnPersistentRNNPlan_t, cudnnSetRNNDescriptor_v6)
#           that the cuDNN 9 here lacks: nvcc 13 fails on it too. The checkout is a `git archive`
#           of source, include, cmake, platforms, third_party and CMakeLists.txt (the
#           snapshot lacks a model blob, so an archive of the whole tree stops):
#             for d in source include cmake platforms third_party; do
#               git --git-dir=M archive --prefix=$d/ f0cb0812:$d | tar -x -C tnn; done
#             git --git-dir=M show f0cb0812:CMakeLists.txt > tnn/CMakeLists.txt
#   slate   icl-utk-edu/slate (f8348a7c). CMake is the build: configured into OUTDIR/cmake
#           with -Dgpu_backend=cuda -Dbuild_tests=OFF, Ninja, Release,
#           -DCMAKE_CUDA_ARCHITECTURES=80 (its default is 60), configure only (BLAS/LAPACK:
#           Debian's OpenBLAS; MPI: Debian's Open MPI; OpenMP: gcc's). Every .cu of its CUDA
#           kernels, src/cuda/*.cu (14; the one .cu of blaspp's own library is left out), the
#           line as CMake writes it (-std=c++17; the generated blas/defines.h and
#           lapack/defines.h under OUTDIR/cmake). Before this script, the submodules at the
#           commits slate's tree records, from their own repositories:
#             git --git-dir=icl-utk-edu+blaspp archive 37b744ed72997d190a9cff651c464a71330aeec0
#               | tar -x -C slate/blaspp
#             git --git-dir=icl-utk-edu+lapackpp archive b7991ec3cf3e404083d9ac09f146a5ac86397cc8
#               | tar -x -C slate/lapackpp
#           The checkout is a `git archive` of the commit.
#   cufinufft  flatironinstitute/cufinufft (6309b9b9). Its Makefile is the build:
#           `make -n -B NVARCH=-arch=sm_80 NVCC=<nvcc> lib` (NVARCH is its arch variable; its
#           default list starts at sm_35, which nvcc 13 refuses) and the nvcc line of each
#           src/**/*.cu (19) as it prints it, once: the Makefile compiles each precision-
#           dependent file twice, `%.o` (double) and `%_32.o` (-DSINGLE, the same code in
#           float); the double line comes first and is kept. Its -std=c++14 (nvcc's and the
#           host compiler's, in -Xcompiler "... -std=c++14") is made -std=c++17, as for kaldi:
#           seven of the files include thrust, and CUDA 13's CCCL refuses C++14 ("CUB requires
#           at least C++17": nvcc 13 fails on them at c++14). contrib/*.cpp are host C++ (not
#           in it); test/*.cu are the testers, not the library. The checkout is a `git archive`
#           of the commit.
#   slabhash  owensgroup/SlabHash (eec7135a). CMake is the build, through FindCUDA
#           (cuda_add_executable: no compile_commands entry): configured into OUTDIR/cmake
#           (Unix Makefiles, Release, configure only) with its defaults. Its arch is its own
#           GENCODE list, SLABHASH_GENCODE_SM35 ON by default (-gencode=arch=compute_35,
#           code=sm_35 and code=compute_35), which nvcc 13 refuses: both made compute_80/sm_80
#           (as for cudpp). Its CUDA_NVCC_FLAGS, set(... -std=c++11) in CMakeLists.txt, stays:
#           no file reaches thrust or cub, and nvcc 13 compiles them at c++11. The library is
#           header-only (src/**/*.cuh, SlabAlloc/src/*.cuh): the database is the .cu of each
#           executable it builds: test/*.cu (5) and bench/main_benchmarks.cu, each once, the
#           line from FindCUDA's per-file script (findcuda_entries). Before this script, the
#           submodules at the commits the tree records, from their own repositories:
#             git --git-dir=owensgroup+SlabAlloc archive d6550289344cd4474d237e959bfd6bc962981af7
#               | tar -x -C slabhash/SlabAlloc
#             git --git-dir=google+googletest archive b77e5c76252bac322bb82c5b444f050bd0d92451
#               | tar -x -C slabhash/ThirdParty/googletest
#             git --git-dir=Tencent+rapidjson archive 55c3c241cf55801d8caf0f11af2e98595797801a
#               | tar -x -C slabhash/ThirdParty/rapidjson
#           The checkout is a `git archive` of the commit.
#   sgemm-cuda  siboehm/SGEMM_CUDA (60cba6f9). CMake is the build (native CUDA language):
#           configured into OUTDIR/cmake with -DCMAKE_CUDA_ARCHITECTURES=80 as for every CMake
#           corpus, Ninja, Release, configure only. Its sgemm target sets CUDA_ARCHITECTURES
#           86 itself (set_target_properties(sgemm ...), which its CMakeLists.txt writes three
#           times, each naming sgemm), so sgemm.cu and src/runner.cu keep the arch 86 the
#           build gives; cuBLAS_sgemm.cu and simplest_kernel.cu get 80. Every .cu of the
#           checkout once (4: the kernels are src/kernels/*.cuh, launched from runner.cu).
#           The checkout is a `git archive` of the commit.
#   astra   astra-toolbox/astra-toolbox (bf7acada). Its autotools build (build/linux) is the
#           build. Before this script, in CHECKOUT/build/linux: libtool is not installed here
#           (autogen.sh's libtoolize fails), so LT_INIT is stubbed (it only sets up libtool for
#           the .cpp objects and the link; the `%.lo: %.cu` rule calls nvcc itself):
#             mkdir -p M4 && echo 'AC_DEFUN([LT_INIT],[AC_SUBST([LIBTOOL],[./libtool])])' \
#               > M4/lt-stub.m4
#             aclocal -I M4 && autoconf && ln -sf config.guess.dist config.guess &&
#             ln -sf config.sub.dist config.sub && ln -sf install-sh.dist install-sh
#             ./configure --with-cuda=/usr/local/cuda --with-cuda-compute=80 \
#               --without-matlab --without-python
#           (autogen.sh's steps less libtoolize; arch 80 through its own --with-cuda-compute).
#           The script runs `make -n -B -o Makefile -o configure -o config.status -o aclocal.m4`
#           (so that make does not rerun autogen.sh) on the 26 objects of CUDA_OBJECTS
#           (cuda/*.cu, cuda/2d/*.cu, cuda/3d/*.cu) and keeps each file's nvcc -c line (the
#           PIC one, first): --std c++17, -gencode compute_80, -DASTRA_CUDA. The checkout is a
#           `git archive` of the commit.
#   cutt    ap-hynninen/cutt (4c251c60). Its Makefile is the build: `make -n -B CUDAC=<nvcc>
#           GENCODE_FLAGS='-gencode arch=compute_80,code=sm_80'` (its GENCODE_FLAGS, sm_35 52
#           60, are nvcc 13's refusals) and the nvcc -c line of each src/*.cu (5: cuttkernel,
#           cuttGpuModelKernel, CudaUtils, CudaMemcpy, TensorTester) as it prints it
#           (-std=c++11 -O3 -Xptxas -dlcm=ca -lineinfo --resource-usage -D_FORCE_INLINES). The
#           checkout is a `git archive` of the commit.
#   gpufit  gpufit/Gpufit (a0bd66c3). CMake is the build, through FindCUDA (cuda_add_library(Gpufit
#           SHARED ...): no compile_commands entry). Configured into OUTDIR/cmake (Unix Makefiles,
#           Release, configure only) with -DCUDA_ARCHITECTURES=8.0, its own arch variable
#           (default All, a list from 5.0 that CUDA_SELECT_NVCC_ARCH_FLAGS turns into -gencode
#           pairs nvcc 13 partly refuses); its other options at their defaults (USE_CUBLAS off;
#           Matlab, JNI and LaTeX not found here, so those bindings and the PDF docs are
#           skipped, as the configure says; Boost 1.74 found for the tests). The line of each
#           .cu of the Gpufit target (Gpufit/{lm_fit_cuda,cuda_kernels,info,gpu_data,
#           cuda_gaussjordan}.cu: 5) is put together from FindCUDA's per-file script
#           (-gencode arch=compute_80,code=sm_80 --std=c++11, -Xcompiler -O3 -DNDEBUG; the
#           example's CUDA_Interface_Example.cu is left out). The checkout is a `git archive`
#           of the commit.
#   infinitam  victorprad/InfiniTAM (4156547e). CMake is the build, through FindCUDA (its
#           cmake/UseCUDA.cmake; cuda_add_library(ITMLib ...): no compile_commands entry).
#           CMakeLists.txt is under InfiniTAM/ in the repository: CHECKOUT is that folder
#           (CHECKOUT/ITMLib). Configured into OUTDIR/cmake (Unix Makefiles, Release, configure
#           only) with -DCUDA_COMPUTE_CAPABILITY=80, its own arch variable (otherwise detected
#           by running a program on the build machine's GPU, cmake/CUDACheckCompute.cmake; none
#           here); optional packages at what the configure finds (no GLUT, OpenNI, libuvc,
#           RealSense, libpng: they concern the Apps and InputSource, not ITMLib). The line of
#           each .cu of the ITMLib target (7: CUDAInstantiations.cu, which includes the .tcu
#           engines, and the LowLevel, ViewBuilding, VisualisationHelpers and three tracker
#           .cu) is put together from FindCUDA's per-file script (--use_fast_math, -Xcudafe
#           --diag_suppress, --generate-code arch=compute_80,code=sm_80, -D_FORCE_INLINES),
#           its --std c++11 (FindCUDA's, from CMAKE_CXX_STANDARD 11) made c++17, as for kaldi:
#           CUDAInstantiations.cu reaches thrust, and nvcc 13 fails on it at c++11 ("Thrust
#           requires at least C++17"); at c++17 nvcc 13 compiles all 7. ORUtils'
#           _CPU_AND_GPU_CODE_ is `__device__` only where __CUDA_ARCH__ is defined
#           (PlatformIndependence.h:10-14), so the vector/matrix constructors and operators
#           are host functions in nvcc's host pass and device functions in its device pass;
#           clang, seeing both sides in one parse, rejects the host code's calls of them:
#           warplint e6d5204 analysed 3 of the 7 files, all with errors, and failed 4.
#           The checkout is a `git archive` of the commit.
#   viennacl  viennacl/viennacl-dev (dc552a8d). CMake is the build, through FindCUDA
#           (cuda_add_library / cuda_add_executable: no compile_commands entry). Configured into
#           OUTDIR/cmake (Unix Makefiles, Release, configure only) with -DENABLE_CUDA=ON
#           -DENABLE_OPENCL=OFF (no OpenCL here; its default ON) -DCUDA_ARCH_FLAG=-arch=sm_80
#           (its arch variable, default -arch=sm_20, which nvcc 13 refuses)
#           -DBUILD_EXAMPLES=OFF -DBUILD_TESTING=ON (Boost 1.74 found). ViennaCL's CUDA kernels
#           live in its headers (viennacl/linalg/cuda/*.hpp) and are reached through the .cu
#           files CMake builds: every FindCUDA .cu of the build, libviennacl/src/*.cu (10, the
#           C library) and tests/src/*.cu (37), the line put together from FindCUDA's per-file
#           script (-arch=sm_80 -DVIENNACL_WITH_CUDA, -Xcompiler -fPIC,-O3,-DNDEBUG; no -std,
#           nvcc 13's default C++17). The checkout is a `git archive` of the commit less
#           examples/testdata (the snapshot lacks one of its blobs; test data, not sources):
#             git --git-dir=M archive dc552a8d -- . ':!examples/testdata' | tar -x -C viennacl
#   libfreenect2  OpenKinect/libfreenect2 (fd64c5d9). CMake is the build: its two .cu
#           (src/cuda_depth_packet_processor.cu, src/cuda_kde_depth_packet_processor.cu),
#           FindCUDA's CUDA_COMPILE with OPTIONS -use_fast_math -Xcompiler -fPIC (no arch: nvcc's
#           default; no -std: ENABLE_CXX11 is OFF by default, nvcc 13's C++17). Configured into
#           OUTDIR/cmake (Unix Makefiles, Release, configure only) with -DBUILD_EXAMPLES=OFF
#           -DBUILD_OPENNI2_DRIVER=OFF -DENABLE_OPENCL=OFF -DENABLE_OPENGL=OFF -DENABLE_VAAPI=OFF
#           -DENABLE_TEGRAJPEG=OFF (host-side parts; nothing of them is installed here). Two
#           REQUIRED packages are absent here and used only by host .cpp files, not the .cu:
#           libusb-1.0 (found through pkg-config) gets a stand-in OUTDIR/pkgconfig/libusb-1.0.pc
#           (written here, on PKG_CONFIG_PATH) and -DLibUSB_LIBRARY=/usr/lib/x86_64-linux-gnu/
#           libusb-1.0.so; TurboJPEG gets -DTurboJPEG_INCLUDE_DIRS=/usr/include
#           -DTurboJPEG_LIBRARIES=/usr/lib/x86_64-linux-gnu/libturbojpeg.so -DTURBOJPEG_WORKS=1
#           (where Debian's libturbojpeg0-dev puts them; /usr/include lands in the -I list).
#           The .cu files include helper_math.h, which the CMake looks for in
#           $NVCUDASAMPLES_ROOT/common/inc (the CUDA samples; CUDA 13 ships none): before this
#           script, put NVIDIA/cuda-samples' copy there,
#             mkdir -p OUTDIR/cuda-samples/common/inc
#             git --git-dir=M archive c94ff366 Common/helper_math.h | tar -xO \
#               > OUTDIR/cuda-samples/common/inc/helper_math.h
#           (NVIDIA/cuda-samples c94ff366aed18c797b8a85dfaac7817b0228b420); the configure runs
#           with NVCUDASAMPLES_ROOT=OUTDIR/cuda-samples. Lines from FindCUDA's per-file scripts
#           (target CMakeFiles/cuda_compile_1.dir). The checkout is a `git archive` of the commit.
#   pointpillars  NVIDIA-AI-IOT/CUDA-PointPillars (ce7e2bd6). CMake is the build: FindCUDA's
#           cuda_add_library(pointpillar_core) of src/pointpillar/*.cu and src/common/tensor.cu
#           (5 .cu; its .cpp are the TensorRT engine and plugin, host code). Configured into
#           OUTDIR/cmake (Unix Makefiles, Release, configure only) with CUDASM=80 in the
#           environment, its own arch variable (-gencode arch=compute_$CUDASM,
#           code=compute_$CUDASM; tool/cudasm.sh would ask the GPU); TensorRT_Inc/_Lib unset
#           (TensorRT is only linked; no .cu includes its headers). Lines from FindCUDA's
#           per-file scripts, with CUDA_NVCC_FLAGS_RELEASE appended as a Release build does
#           (-Werror=all-warnings -Xcompiler -std=c++14,-Wextra,-Wall,...,-O3). Its host
#           -std=c++14 (CMAKE_CXX_FLAGS_RELEASE and CUDA_NVCC_FLAGS_RELEASE, both reaching nvcc
#           through -Xcompiler) is made -std=c++17, as for kaldi: at c++14 nvcc 13 fails on all
#           5 (g++ rejects the c++17 host code cudafe writes, <type_traits> "previously
#           declared"; lidar-postprocess.cu: "CUB requires at least C++17"). The checkout is
#           a `git archive` of src and CMakeLists.txt (the snapshot lacks model/data blobs).
#   gasal2  nahmedraja/GASAL2 (106d94ee). Its Makefile is the build: in the checkout,
#           ./configure.sh /usr/local/cuda (writes NVCC into the Makefile and the cuda_runtime.h
#           path into src/gasal.h), then the script runs `make -n -B gasal_align.cuo
#           GPU_SM_ARCH=sm_80 MAX_QUERY_LEN=160 N_CODE=0x4E` (README's variables: 160 and 0x4E
#           as test_prog/README.md gives them for its sample files; the optional N_PENALTY
#           unset) and keeps the nvcc line of src/gasal_align.cu, its one .cu (the kernels
#           are in src/gasal_kernels.h and src/kernels/*.h, launched from gasal_align.cu and
#           gasal_align.h). The line as the Makefile gives it: -std=c++11 (nvcc 13 compiles
#           the file so), MAX_QUERY_LEN and N_CODE defined through -Xcompiler only (nvcc
#           preprocesses the device side with the host compiler too). The checkout is a
#           `git archive` of the commit.
#   dualsphysics  DualSPHysics/DualSPHysics (ef3721a8). Its Makefile, src/source/Makefile,
#           is the build: the script runs `make -n -B NCC=NVCC
#           GENCODE=-gencode=arch=compute_80,code="sm_80,compute_80" OBJ...` in src/source
#           for the 11 objects of its OBCUDA and OBWAVERZCUDA lists (JCellDivGpu_ker,
#           JCellDivGpuSingle_ker, JDsPips_ker, JDsGauge_ker, JReduSum_ker, JSphShifting_ker,
#           JDsAccInput_ker, JSphGpu_ker, JSphGpuSimple_ker, JWaveOrder2_ker, JRelaxZone_ker;
#           the JSphGpu_*_iker.cu are #included by JSphGpu_ker.cu) and keeps each nvcc line
#           (-c -O3 -ccbin g++ -D_WITHMR -D_WITHGPU -D{CUB,THRUST}_IGNORE_DEPRECATED_CPP_DIALECT
#           -use_fast_math; no -std, nvcc 13's C++17). GENCODE given on the command line in
#           place of its CUDAVER=12 list (sm_61, sm_70, sm_86): one arch, 80. Other variables
#           at their defaults (USE_DEBUG=NO). src_mphase/ (the non-Newtonian fork's copy of the
#           same kernels) is not in the database. The checkout is a `git archive` of the commit's
#           src/source (the snapshot lacks the prebuilt bin/ blobs).
#   specfem3d  geodynamics/specfem3d (7ab24140). Its autoconf build: in the checkout,
#           ./configure --with-cuda=cuda11 CUDA_LIB=/usr/local/cuda/lib64
#           CUDA_INC=/usr/local/cuda/include FC=gfortran CC=gcc (with nvcc on PATH; cuda11,
#           its newest CUDA level, is its GENCODE_80 and -DGPU_DEVICE_Ampere; configure finds
#           MPI here and adds -DWITH_MPI). Then `make -n -B NVCC=<nvcc> OBJECTS`, OBJECTS the
#           .cuda.o and .cuda-kernel.o files of its gpu_specfem3D_OBJECTS (make
#           print-gpu_specfem3D_OBJECTS, src/gpu/rules.mk), and the nvcc -c line of each .cu:
#           src/gpu/*.cu (20) and src/gpu/kernels/*.cu (39, each with -x cu -include
#           src/gpu/mesh_constants_gpu.h); save_and_compare_cpu_vs_gpu.c (C, no kernels) is
#           not a .cu. The checkout is a `git archive` of the commit's blobs that the
#           snapshot holds (33 it lacks: data and figures under doc/, utils/, EXAMPLES/,
#           CUBIT_GEOCUBIT/, none of them read by the GPU build); DATA/'s files are links
#           into EXAMPLES/, which configure reads.
#   cudasw4 asbschmidt/CUDASW4 (37a394c3). Its Makefile is the build: `make -n -B
#           COMPILER=<nvcc> release gridsearch` (release: align and makedb; gridsearch its
#           third program) and the nvcc -c line of each src/*.cu (7), with its -arch=native
#           made -arch=sm_80 (no GPU here for native to name). -std=c++17 is its own.
#   gamer   gamer-project/gamer (8979ef12). Its Makefile, which src/configure.py writes, is
#           the build. A machine file CHECKOUT/configs/warplint.config (template.config's
#           flags with this machine's paths: CUDA_PATH /usr/local/cuda, FFTW3_PATH /usr,
#           CXX g++, CXX_MPI mpicxx, CXXFLAG -g -O2, OPENMPFLAG -fopenmp, NVCCFLAG_COM -O3,
#           NVCCFLAG_FLU -Xptxas -dlcm=ca -prec-div=false -ftz=true, NVCCFLAG_POT -Xptxas
#           -dlcm=ca, GPU_COMPUTE_CAPABILITY 800), then in CHECKOUT/src
#           python3 configure.py --machine=warplint --gpu=true --gravity=true --fftw=FFTW3
#           (HYDRO with its default CTU, PPM, HLLC and gamma EoS; gravity, which needs FFTW,
#           adds the Poisson and gravity solvers). The script runs `make -n -B
#           COMPILE_VERBOSE=1` of its OBJ_GPU and keeps each nvcc line (`-dc X.cu`, no -c):
#           49 .cu (GPU_API, GPU_Hydro, GPU_HydroGravity, GPU_Poisson, EoS, source terms).
#   instant-ngp  NVlabs/instant-ngp (abe236ee), its own .cu: src/*.cu and the three OptiX
#           programs src/optix/*.cu (which its CMake compiles to PTX), not tiny-cuda-nn's. CMake
#           is the build: configured into OUTDIR/cmake with -DNGP_BUILD_WITH_GUI=OFF (GLFW, GLEW,
#           OpenGL and the OpenXR submodule are absent here) -DNGP_BUILD_WITH_PYTHON_BINDINGS=OFF
#           (its pybind11 submodule is not in the checkout) -DTCNN_CUDA_ARCHITECTURES=80 (its
#           arch variable, passed to tiny-cuda-nn), OptiX and RTC at their defaults (ON); then
#           the optix_ptx.h rule (nvcc -ptx of the three OptiX programs, then its bin2c command:
#           the header src/triangle_bvh.cu includes from the build tree). Its -std=c++14 is
#           its own (CMAKE_CUDA_STANDARD 14). The checkout: `git archive` of the commit with its
#           submodules under dependencies/: tiny-cuda-nn 2e757bbe (with its cutlass 1eb63551,
#           fmt fa2eb2d2, cmrc 952ffddb), tinylogger aea07e21, zstr 007f9760, args a48e1f88,
#           and glfw (read by nothing with the GUI off, but its CMakeLists.txt must exist: the
#           snapshot of Tom94/glfw lacks 71eb7036, so its newest, 2cc924c2).
#   gardenia  chenxuhao/gardenia (5894df11). Its Makefiles (src/common.mk) are the build: the
#           top Makefile's ANALYTICS list (bc bfs cc pr sgd spmv sssp vc symgs) and tc, each
#           src/X/Makefile's `all` (its own CUDA targets); the script runs `make -n -B all
#           NVCC=<nvcc> CUDA_ARCH=-gencode arch=compute_80,code=sm_80` in each (CUDA_ARCH given
#           in place of its 37/61/70 list) and keeps the nvcc -c line of each .cu (23 files),
#           -I ../../cub being its cub submodule (NVlabs/cub c3cceac1, put at CHECKOUT/cub).
#   bght    owensgroup/BGHT (7584547f). CMake is the build: configured into OUTDIR/cmake with
#           -Dbuild_tests=OFF (its two tests get googletest through a CPM download, no network
#           here) and -DCMAKE_CUDA_ARCHITECTURES=80; the examples (8) and benchmarks (3), each
#           .cu once.
#   quest   QuEST-Kit/QuEST (4d44ec81). CMake is the build: configured into OUTDIR/cmake
#           (Ninja, Release, configure only) with -DENABLE_CUDA=ON (its GPU switch; cuQuantum,
#           MPI and HIP at their defaults, OFF; OpenMP ON) and CMAKE_CUDA_ARCHITECTURES=80. Its
#           CUDA backend is two .cpp files that quest/src/gpu/CMakeLists.txt gives LANGUAGE
#           CUDA (nvcc ... -x cu): quest/src/gpu/gpu_subroutines.cpp (the launches of the
#           kernels of gpu_kernels.cuh, and Thrust calls of gpu_thrust.cuh) and gpu_config.cpp;
#           the database is every file the build compiles with nvcc (those two). Its
#           CUDA_STANDARD 20 gives no -std on CMake 3.25's line (nvcc 13's C++17). The
#           checkout is a `git archive` of the commit.
#   deepmd  deepmodeling/deepmd-kit (bc902daf). CMake is the build, from source/: configured
#           into OUTDIR/cmake (Ninja, Release, configure only) with -DUSE_CUDA_TOOLKIT=ON
#           -DALLOW_NO_BACKEND=ON (no TensorFlow, PyTorch, JAX or Paddle here: the
#           backend-neutral C/C++ library, its own switch) and CMAKE_CUDA_ARCHITECTURES=80 (its
#           default all-major). This machine's CMake is 3.25.1 and deepmd asks for 3.25.2
#           (RUN_OUTPUT_STDOUT_VARIABLE, the feature it names, is in 3.25.0): before this
#           script, in the checkout,
#             sed -i 's/VERSION 3.25.2)/VERSION 3.25.1)/' source/CMakeLists.txt \
#                 source/lib/src/gpu/CMakeLists.txt
#           The database is every .cu of the deepmd_op_cuda library, source/lib/src/gpu/*.cu
#           (10; its precompiled header is for the C++ files only, not on the nvcc lines); the
#           PyTorch custom ops of source/op/pt (.cu too) need libtorch (ENABLE_PYTORCH) and are
#           not built. No -std on the line: CMAKE_CUDA_STANDARD 17 for CUDA 13 is nvcc 13's
#           default. The checkout is a `git archive` of the commit.
#   mcx     fangq/mcx (d97fd717). Its Makefile, src/Makefile, is the build: the script runs
#           `make -n -B CUDACC=<nvcc> CUGENCODE=-arch=sm_80` in src/ (the default target, all:
#           fermi, whose CUGENCODE is otherwise the first sm_ of `nvcc --list-gpu-code`) and
#           keeps the nvcc line of its one .cu, src/mcx_core.cu (-c -g -lineinfo -Xcompiler
#           -Wall -Xcompiler -fopenmp -m64 -DSAVE_DETECTORS -use_fast_math -arch=sm_80
#           -DMCX_TARGET_NAME=... -DUSE_ATOMIC; the mcx_rand_*.cu are #included by
#           mcx_core.cu, the rest is C/C++ for gcc). No -std: nvcc 13's C++17. The checkout is
#           a `git archive` of the commit.
#   cholla  cholla-hydro/cholla (8478c9ed). Its Makefile is the build, with a machine file
#           builds/make.host.MACHINE and a type file builds/make.type.TYPE: the script runs
#           `make -n -B MACHINE=github GPUCXX=<nvcc> CUDA_ROOT=<nvcc's toolkit>
#           CUDA_ARCH=sm_80 MPI_ROOT=/usr/lib/x86_64-linux-gnu/openmpi
#           HDF5_ROOT=/usr/lib/x86_64-linux-gnu/hdf5/serial` in the checkout (make.host.github,
#           the CI's machine file, whose -O3 -std=c++17 GPU flags are plain; TYPE=hydro, its
#           default: -DMPI_CHOLLA -DPRECISION=2 -DPLMC -DHLLC -DVL -DDENSITY_FLOOR
#           -DTEMPERATURE_FLOOR -DOUTPUT -DHDF5; CUDA_ARCH sm_80 in place of its default sm_70;
#           MPI_ROOT and HDF5_ROOT, which the CI sets, at Debian's libopenmpi-dev and
#           libhdf5-dev: `apt-get install libopenmpi-dev libhdf5-dev`, whose
#           hdf5/serial/include is a link to /usr/include/hdf5/serial) and keeps the nvcc line
#           of every .cu of its GPUFILES (50: every src/**/*.cu less the tests, *_tests.cu and
#           src/system_tests/). The kernels are launched through hipLaunchKernelGGL, which
#           src/utils/gpu.hpp defines as `<<<...>>>` for CUDA. The checkout is a `git archive`
#           of the commit (no .git: its GIT_HASH is empty).
#   gpu4pyscf  pyscf/gpu4pyscf (5025fc4a). CMake is the build of its C/CUDA library,
#           gpu4pyscf/lib (what setup.py's build runs): configured into OUTDIR/cmake (Ninja,
#           Release, configure only) with -DCUDA_ARCHITECTURES=80-real (its own arch variable,
#           default 70-real;80-real;90-real) and -DBUILD_CUTLASS=OFF -DBUILD_LIBXC=OFF, its
#           options for the two ExternalProject downloads (cutlass v3.4.0 for cupy_helper's
#           optional GEMM, libxc): no network here. Every .cu of the build once (93; the other
#           .cu files of the tree are #included by these).
#   lidar-ai  NVIDIA-AI-IOT/Lidar_AI_Solution (787ad954). Its CUDA code bases' own builds,
#           the checkout a copy of the snapshot's blobs (data, model and font blobs and the
#           submodules absent; no .cu needs them):
#           CUDA-BEVFusion: CMake (FindCUDA) configured into OUTDIR/cmake-bevfusion (Release,
#           configure only) in tool/environment.sh's environment: CUDASM=80 (its own arch
#           variable; tool/cudasm.sh would ask the GPU), USE_Python=OFF,
#           SPCONV_CUDA_VERSION=12.8 (the CUDA 12 branch: -std=c++17), CUDA_Inc/CUDA_Lib of
#           the toolkit here, TensorRT_Inc unset (Debian's protobuf found): the .cu of
#           bevfusion_core (src/bevfusion/*.cu, src/common/tensor.cu) and of the bevfusion
#           program (src/common/visualize.cu, libraries/cuOSD/src/cuosd_kernel.cu), lines
#           from FindCUDA's per-file scripts; its custom_layernorm target (a TensorRT plugin,
#           NvInfer.h, which is not installed here) left out.
#           CUDA-CenterPoint: CMake (FindCUDA), OUTDIR/cmake-centerpoint, Release, configure
#           only, with -DCUDA_NVCC_FLAGS=-arch=sm_80 (it sets no arch); its CMakeLists.txt
#           sets CUDA_TOOLKIT_ROOT_DIR to the authors' /root/.kiwi/lib/cuda-11.8 on x86_64
#           (README: set your paths there), which this script edits in the checkout to the
#           toolkit of --nvcc (TENSORRT_ROOT left: only an -I that no .cu reaches); its two
#           src/*.cu.
#           libraries/: `make -n -B` of each Makefile's CUDA object: 3DSparseConvolution
#           (CUDA_HOME, SPCONV_CUDA_VERSION=12.8, cuda_arch arch 80 alone in place of its
#           80+86 list: src/voxelization.cu), YUVToRGB (cuda_home; it gives no arch:
#           yuvtorgb_library/yuv_to_rgb_kernel.cu), roiconvert (CUDA_VER=13.0, cuda_home
#           the toolkit: roi_conversion/roi_conversion.cu). cuOSD's Makefile builds the
#           cuosd_kernel.cu BEVFusion's line already has. 17 files.
#   pcl     PointCloudLibrary/pcl (1fdb0388). CMake is the build, native CUDA
#           (cmake/pcl_find_cuda.cmake): configured into OUTDIR/cmake (Ninja, Release,
#           configure only) with -DBUILD_GPU=ON (its GPU subsystems, default OFF),
#           -DBUILD_gpu_surface=ON -DBUILD_gpu_tracking=ON (its two GPU subsystems that are
#           off by default) and -DCUDA_ARCH_BIN=80 (its own arch variable, default every
#           arch nvcc lists); Eigen, Boost and FLANN from Debian (libeigen3-dev,
#           libboost-{filesystem,iostreams,system,date-time}-dev, libflann-dev), VTK absent.
#           Its CMake leaves out gpu_kinfu, gpu_kinfu_large_scale and gpu_people with CUDA
#           >= 12 ("uses textures which was removed in CUDA 12"), and the old cuda/ tree
#           (BUILD_CUDA) is not asked for. Every .cu of the build once: gpu/containers,
#           gpu/octree, gpu/features, gpu/surface, gpu/tracking.
#   cuda-convnet2  akrizhevsky/cuda-convnet2 (3238bf03). Its Makefiles are the build
#           (build.sh runs make in util, nvmatrix, cudaconv3, cudaconvnet): `make -n -B` in
#           nvmatrix/ and cudaconv3/, its two CUDA libraries (7 .cu), with build.sh's
#           CUDA_INSTALL_PATH (the toolkit of --nvcc), GENCODE_FLAGS arch 80 in place of
#           its sm_35, and CUDA_SDK_PATH=OUTDIR/cuda-samples (it includes the CUDA samples'
#           helper_cuda.h from $(CUDA_SDK_PATH)/common/inc; CUDA 13 ships none): before
#           this script, put NVIDIA/cuda-samples c94ff366's Common/*.h in
#           OUTDIR/cuda-samples/common/inc. cudaconvnet/ (the Python 2 extension module,
#           Python.h and numpy's arrayobject.h) is left out; util/ has no .cu. cblas.h (which
#           util/include/matrix.h includes) from Debian's libblas-dev.
#   cloverleaf-cuda  UK-MAC/CloverLeaf_CUDA (03c78032). Its Makefile is the build (README:
#           make COMPILER=... NV_ARCH=...): `make -n -B COMPILER=GNU NV_ARCH=AMPERE
#           CUDA_HOME=<the toolkit of --nvcc>` (AMPERE: its -gencode arch=compute_80,code=sm_80),
#           keeping the nvcc line of each of its 18 .cu (the kernels of kernel_files/*.cuknl
#           are #included by the X_kernel_cuda.cu that launches them); the rule calls `nvcc`
#           from PATH, written here as --nvcc's path.
#   kblas   ecrc/kblas-gpu (8af76dc8). CMake is the build (native CUDA): configured into
#           OUTDIR/cmake (Ninja, Release, configure only), its options at their defaults
#           (BLAS2, BLAS3, batch triangular, TLR, SVD all ON; _USE_MAGMA_ ON but MAGMA is not
#           installed here, so find_package(MAGMA) fails and no -DUSE_MAGMA is set), BLAS from
#           Debian's libblas-dev, CMAKE_CUDA_ARCHITECTURES 80 (it sets none: TARGET_SM=80).
#           Every .cu of the build once (70); a file its CMake compiles once per precision
#           (Xblas_core.cu, Xtrmm.cu, batch_triangular/X*.cu: -DPREC_s/d/c/z; Xgemm_tlr.cu and
#           two batch_svd files: s/d) keeps its -DPREC_d line.
#   nvbio   NVlabs/nvbio (5916f3ea), its contrib/cub submodule NVlabs/cub (c3cceac1). CMake
#           is the build, through FindCUDA (cuda_add_library/cuda_add_executable: no
#           compile_commands entries): configured into OUTDIR/cmake (Unix Makefiles, Release,
#           configure only) with -DGPU_ARCHITECTURE=sm_80 (its own arch variable, default
#           sm_35, which nvcc 13 refuses); every .cu of every target (66) but
#           contrib/moderngpu's (a third-party copy, itself a corpus), the line put together
#           from FindCUDA's per-file script (findcuda_entries): -m64, -DPLATFORM_X86, its
#           CUDA_NVCC_FLAGS --gpu-architecture=sm_80 -use_fast_math, the host flags (-fopenmp,
#           -iquote of the checkout, Release -O3 -msse4.2 ...) in one -Xcompiler list. 65 files.
#   unidock dptech-corp/Uni-Dock (66546c37), the CMake project in unidock/. CMake is the
#           build (native CUDA): configured into OUTDIR/cmake (Ninja, Release, configure only),
#           CMAKE_CUDA_ARCHITECTURES 80 in place of its 70..120 list, boost from Debian
#           (libboost-{system,thread,serialization,filesystem,program-options,timer}-dev) and
#           its FetchContent Catch2 (only for its unit tests) from a local copy of
#           catchorg/Catch2 v3.4.0 (6e79e682) given as -DFETCHCONTENT_SOURCE_DIR_CATCH2=DIR
#           (--catch2, else OUTDIR/Catch2; no network here). Its 2 .cu (src/cuda/monte_carlo.cu
#           and precalculate.cu).
#   learn-cuda  PacktPublishing/Learn-CUDA-Programming (10bd9b59). Each sample's Makefile is
#           its build: `make -n -B` in every sample folder of Chapter01-Chapter07, the CUDA
#           programming chapters (08 library calls, 09 OpenACC, 10 cuDNN/DL left out; the
#           chapters' own Makefiles only run make in those folders), with
#           CUDA_PATH the toolkit of --nvcc, GENCODE_FLAGS arch 80 in place of its SMS list
#           (52..80, which nvcc 13 refuses below 75) and INCLUDES=-IOUTDIR/cuda-samples/common/inc
#           (it includes the CUDA samples' helper_cuda.h/helper_timer.h from
#           $(CUDA_PATH)/samples/common/inc; CUDA 13 ships none): before this script, put
#           NVIDIA/cuda-samples c94ff366's Common/*.h in OUTDIR/cuda-samples/common/inc. The
#           nvcc line of each .cu (-c X.cu; a sample built in one step, `nvcc X.cu -o X`,
#           gets -c before its file); a sample whose Makefile says plain `nvcc` gets --nvcc's
#           path.
#   cusha   farkhor/CuSha (e7537340). sfBuild.sh is the build: one nvcc line compiling its 7
#           .cu and parse_graph.cpp into one binary, -O3 -arch=sm_35; the script gives each
#           .cu of that line its own `nvcc -O3 -arch=sm_80 -c FILE` (arch 80 in place of 35).
#   hypre   hypre-space/hypre (0854739e). CMake is the build (src/CMakeLists.txt),
#           configured into OUTDIR/cmake with -DHYPRE_ENABLE_CUDA=ON -DHYPRE_ENABLE_UMPIRE=OFF
#           (a CUDA build asks for Umpire and offers to download it; off: no network),
#           Debian's Open MPI, arch 80; the nvcc line of each of the 144 .c files CMake
#           compiles as CUDA (`-x cu`: the CUDA build sets their LANGUAGE to CUDA).
#   qmcpack QMCPACK/qmcpack (79d4f0ee). CMake is the build, configured into OUTDIR/cmake
#           with -DQMC_GPU=cuda -DBUILD_AFQMC=ON (AFQMC holds most of its kernels) and
#           Debian's Open MPI, parallel HDF5, Boost, libxml2 and libfftw3-dev (apt-get
#           install libfftw3-dev), arch 80 (configure takes ~9 minutes on 2 cores); every
#           .cu under src/ (36: AFQMC's Numerics/detail/CUDA/Kernels, QMCWaveFunctions'
#           detail/CUDA, Platforms/CUDA).
#   raytracing-cuda  rogerallen/raytracinginoneweekendincuda (ab140b12, branch
#           ch12_where_next_cuda, the book's last chapter). Its Makefile is the build:
#           `make -n -B NVCC="<--nvcc> -ccbin g++" GENCODE_FLAGS="-gencode
#           arch=compute_80,code=sm_80" cudart.o` (arch 80 in place of its 60), main.cu's line.
#   chai    chai-benchmarks/chai (1ad38e36). Each benchmark's Makefile is the build: one nvcc
#           line compiling main.cpp, kernel.cpp and kernel.cu into one program, `-std=c++11`
#           (CUDA-U adds -arch=sm_61). The script runs `make -n -B CXX=<--nvcc>
#           CHAI_CUDA_LIB=<toolkit>/lib64 CHAI_CUDA_INC=<toolkit>/include` in each benchmark
#           of CUDA-D and CUDA-U and gives its kernel.cu that line's flags with -arch=sm_80 and
#           `-c kernel.cu` (28 files); the -Sim versions, made for simulators, are left out.
#   quick   merzlab/QUICK (bc80f985). CMake (FindCUDA's cuda_add_library) is the build,
#           configured into OUTDIR/cmake with -DCOMPILER=GNU -DCUDA=TRUE
#           -DQUICK_USER_ARCH=ampere (arch 80 only; gfortran is needed by the configure),
#           Release; no compile_commands entry for its .cu files, so each line is put
#           together from the script FindCUDA writes per file (findcuda_entries, with its
#           -dc: the targets are separable compilation; the scripts set no
#           CMAKE_HOST_FLAGS_RELEASE, read as empty): every .cu
#           of the source tree that the CUDA targets compile (src/gpu/cuda/*.cu,
#           src/gpu/*.cu, src/libxc/*.cu and the libxc maple2c_device functionals), once each.
#   osqp    osqp/osqp (1572ae06). CMake is the build, configured into OUTDIR/cmake with
#           -DOSQP_ALGEBRA_BACKEND=cuda (its default options for that backend: floats,
#           32-bit indices); every .cu under algebra/cuda/ once, its two --generate-code
#           options (its CMakeLists sets CMAKE_CUDA_ARCHITECTURES 52 75 over the
#           command line's) replaced by arch 80's.
#   qsim    quantumlib/qsim (502b4a37). Its Makefiles are the build: `make -n -B
#           CUDAARCHS=80 qsim-cuda cuda-tests` from the top (apps/ and tests/ run with the
#           exported NVCCFLAGS: -std c++17 -Wno-deprecated-gpu-targets -O3 and
#           --generate-code arch=compute_80,code=sm_80 for CUDAARCHS=80). Each program is one
#           `nvcc -o X X.cu` line; the script keeps its flags and compiles `-c X.cu` (the
#           custatevec targets need cuQuantum, not here, and are left out). The tests'
#           lines name googletest's include dir of the tests/googletest submodule; Debian's
#           /usr/include/gtest is what the run uses when the submodule is empty.
#   gpunufft andyschwarzl/gpuNUFFT (350fc322). CMake (FindCUDA) in CUDA/ is the build,
#           configured into OUTDIR/cmake with -DGEN_MEX_FILES=OFF (no MATLAB here) and its
#           other defaults (no Python, single precision), Release; its CUDA_NVCC_FLAGS (-gencode for 50-75, which
#           CUDA 13 refuses below 75) replaced by -gencode arch=compute_80,code=sm_80; the
#           gpuNUFFT_ATM_f library's two .cu files (atomic_gpuNUFFT.cu, which #includes the
#           other kernel files, and precomp_kernels.cu).
#   superlu-dist  xiaoyeli/superlu_dist (1fd66dad). CMake is the build, configured into
#           OUTDIR/cmake with -DTPL_ENABLE_CUDALIB=ON -DTPL_ENABLE_PARMETISLIB=OFF (ParMETIS
#           not here) -Denable_python=OFF, Debian's Open MPI and reference BLAS, arch 80;
#           every .cu under SRC/ once (SRC/cuda, SRC/CplusplusFactor; tests and examples
#           have no .cu).
#   tealeaf-cuda  UK-MAC/TeaLeaf_CUDA (2ac2460f). Its Makefile is the build, as CloverLeaf_CUDA's:
#           `make -n -B COMPILER=GNU NV_ARCH=AMPERE CUDA_HOME=<toolkit>` (AMPERE: its
#           `-gencode arch=compute_80,code=sm_80`), the nvcc line of each of its 10 `.cu`
#           (`nvcc -ccbin mpicxx ...`, its `nvcc` from PATH given as --nvcc), which include
#           the kernels of `kernel_files/*.cuknl` and launch them through CUDALAUNCH.
#   peasoup ewanbarr/peasoup (41c459f9). Its Makefile is the build. Before this script:
#           vishnubk/dedisp (25737499, the fork its README and Dockerfile build) unpacked
#           into CHECKOUT/dedisp and its headers put in dedisp/include as dedisp's own
#           Makefile does (`cp src/dedisp.h src/DedispPlan.hpp include/`, where the peasoup
#           Makefile looks for an installed dedisp). The script runs `make -n -B
#           CUDA_DIR=<toolkit>/ THRUST_DIR=<toolkit>/ DEDISP_DIR=CHECKOUT/dedisp
#           GPU_ARCH_FLAG='-gencode arch=compute_80,code=sm_80'` (its arch list, which it
#           works out from the toolkit's version and gets wrong for 13.0, made 80) and keeps
#           the nvcc line of src/kernels.cu and, from the peasoup program's one-step line
#           (pipeline_multi.cu, utils.cpp and kernels.o), that line's flags with
#           `-c src/pipeline_multi.cu` (2 files).
#   crystal anilshanbhag/crystal (f2179e60). Its Makefile is the build: `make setup` downloads
#           cub 1.6.4 into CHECKOUT/cub (here: NVlabs/cub at tag 1.6.4, 7ba78ae3, unpacked
#           there), then one `$(NVCC) ... -dc src/X.cu -o obj/X.o` rule per query/operator.
#           The script runs `make -n -B NVCC=<--nvcc> SM_TARGETS=-gencode=arch=compute_80,
#           code=\\"sm_80,compute_80\\" obj/ssb/qNN.o ... obj/ops/X.o` (arch 80 in place of
#           its 52, the quotes escaped as its Makefile escapes them: `code=\"sm_80,...\"`) and
#           keeps each .cu's line as it is (--std=c++11, -Icub/ -Icub/test, and the empty
#           `-I$(INC)`, which swallows the -O3 after it, as in the build); 15 files.
#           nvcc 13 refuses them all: cub 1.6.4's test/test_util.h reads
#           cudaDeviceProp::memoryClockRate, gone in CUDA 13.
#   subway  AutomataLab/Subway (a0ef2d1a). Its Makefiles are the build (shared/ and subway/:
#           `$(NC) -c X.cu ... -std=c++11 -O3 -arch=sm_60`). The script runs `make -n -B
#           NC=<--nvcc> NFLAGS=-arch=sm_80` in shared/ and subway/ and keeps each .cu's
#           line, with -std=c++11 made -std=c++17: CUDA 13's CCCL refuses C++ < 17 and
#           subgraph_generator.cuh, which every program includes, includes thrust (as for
#           kaldi); 17 files.
#   cgbn    NVlabs/CGBN (6e6fdc1a). Its Makefiles are the build: `make ampere` runs
#           `nvcc -I../../include -arch=sm_80 X.cu -o X -lgmp` in each sample (5 files),
#           unit_tests' `nvcc -I$(GTEST_DIR)/include -I../include -std=c++14 -arch=sm_80
#           tester.cu libgtest.a -lgmp -Xcompiler -fopenmp -o tester` and perf_tests'
#           xmp_tester.cu line (its Makefile has no ampere rule for it: the volta one, made
#           arch 80). Before this script, CHECKOUT/gtest holds googletest's googletest/
#           folder (what `make download-gtest` unpacks; google/googletest 72606823); GMP is
#           Debian's libgmp-dev. Each line becomes a compile: -c before its .cu, without -o,
#           -l, -L and libgtest.a; tester.cu's -std=c++14 made -std=c++17 (CCCL 3 refuses
#           C++14); 7 files.
#   ggnn    cgtuebingen/ggnn (4f8088f1). CMake is the build, configured into OUTDIR/cmake
#           with -DGGNN_CUDA_ARCHITECTURES=80 (its own arch variable, forced into
#           CMAKE_CUDA_ARCHITECTURES), Debian's glog and gflags (apt-get install
#           libgoogle-glog-dev libgflags-dev: its FetchContent finds them installed and
#           downloads nothing), no nanobind (the Python module is left out, as its CMake
#           does without it). Before this script: its `cmake_minimum_required(VERSION
#           3.25.2)` lowered to 3.25.1 (Debian's); CMake 3.25.1 does not know nvcc's C++20
#           flag, so the script gives it -DCMAKE_CUDA20_STANDARD_COMPILE_OPTION=-std=c++20
#           (and the EXTENSION one), what 3.25.2 sets. Every .cu under src/ and examples/
#           once (15 files).

#   graphbig graphbig/graphBIG (9ceb9d1b), its gpu_bench only. Its Makefiles are the build
#           (gpu_bench/<bench>/Makefile including gpu_bench/common.mk: `${NVCC} -c
#           ${NVCC_FLAGS} $<`, NVCC_FLAGS = -I../../gpu_bench/cudalib, no -arch: nvcc's
#           default). The script runs `make -n -B NVCC="<--nvcc> -arch=sm_80" all` in each
#           of gpu_bench's eight benchmark folders (arch 80 added where the build gives none)
#           and keeps each .cu's line; 20 files.
#   hkv     NVIDIA-Merlin/HierarchicalKV (ae24eecd). CMake is the build, configured into
#           OUTDIR/cmake with -Dsm=80 (its own arch list, added to CMAKE_CUDA_FLAGS as
#           -gencode; its targets set CUDA_ARCHITECTURES OFF), its googletest submodule
#           (google/googletest 0e0d9fee) unpacked in CHECKOUT/tests/googletest. Every .cu
#           of its tests and benchmarks once (21 files), googletest's left out.

#   cvcuda  CVCUDA/CV-CUDA (da51fc96). CMake is the build, configured into OUTDIR/cmake with
#           its defaults (tests, python, samples, bench off: no submodule needed) and
#           -DCMAKE_CUDA_ARCHITECTURES=80 (its CMake then keeps that in place of its 70..90
#           list). CUDA 13 here has no libcusolver_static.a, so the generate step stops at
#           cvcuda_priv's link to CUDA::cusolver_static after writing compile_commands.json
#           (every compile line written; the headers configure generates are in
#           OUTDIR/cmake). Every .cu under src/ once (70: the operators of
#           src/cvcuda/priv and priv/legacy).
#   phantom encryptorion-lab/phantom-fhe (1f4a1984). CMake is the build, configured into
#           OUTDIR/cmake with its defaults (the library and examples; benchmarks, tests and
#           python off: neither submodule needed) and -DCMAKE_CUDA_ARCHITECTURES=80 (its
#           default `native`). Every .cu under src/ and examples/ once (37 files).

import argparse
import glob
import json
import os
import re
import shlex
import shutil
import subprocess
import sys


def magma(src, out, nvcc):
    make_vars = ["OPENBLASDIR=/usr", "GPU_TARGET=Ampere", "NVCC=" + nvcc]
    for need in ("make.inc", "include/magma_config.h", "magmablas/dgemv_fermi.cu"):
        if not os.path.exists(os.path.join(src, need)):
            sys.exit("compdb.py: %s/%s missing: run the make steps in this script's header"
                     % (src, need))
    dry = subprocess.run(["make", "-n", "-B"] + make_vars + ["magmablas"], cwd=src,
                         capture_output=True, text=True, check=True).stdout
    tracked = set(subprocess.run(["git", "ls-files", "magmablas"], cwd=src, capture_output=True,
                                 text=True).stdout.split())
    if not tracked:
        # An archive (no .git): the tracked list is the one shipped beside this script.
        with open(os.path.join(os.path.dirname(__file__), "magma-tracked.txt")) as f:
            tracked = set(f.read().split())
    db = []
    for line in dry.splitlines():
        args = shlex.split(line)
        if not args or os.path.basename(args[0]) != os.path.basename(nvcc) or "-c" not in args:
            continue
        f = args[-1]
        if f.endswith(".cu") and f in tracked:
            db.append({"directory": src, "file": os.path.join(src, f), "command": line})
    return sorted(db, key=lambda e: e["file"])


def cmake_entries(src, out, nvcc, options, env=None, cuda_architectures=True):
    """Configures SRC into OUT/cmake with OPTIONS (in ENV, else this environment) and returns
    its compile_commands.json. CUDA_ARCHITECTURES False: no -DCMAKE_CUDA_ARCHITECTURES=80
    (for a build with its own arch variable that CMake's would add to)."""
    build = os.path.join(out, "cmake")
    archs = ["-DCMAKE_CUDA_ARCHITECTURES=80"] if cuda_architectures else []
    subprocess.run(["cmake", "-S", src, "-B", build, "-G", "Ninja",
                    "-DCMAKE_EXPORT_COMPILE_COMMANDS=ON", "-DCMAKE_CUDA_COMPILER=" + nvcc,
                    "-DCMAKE_BUILD_TYPE=Release"] + archs + options,
                   env=env, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, check=False)
    path = os.path.join(build, "compile_commands.json")
    if not os.path.exists(path):
        sys.exit("compdb.py: cmake wrote no %s (see cmake -S %s -B %s)" % (path, src, build))
    with open(path) as f:
        return json.load(f)


def faiss(src, out, nvcc):
    entries = cmake_entries(src, out, nvcc, ["-DFAISS_ENABLE_GPU=ON", "-DFAISS_ENABLE_PYTHON=OFF",
                                             "-DBUILD_TESTING=OFF"])
    seen = {}
    root = src.rstrip("/") + "/"
    for e in entries:
        f = os.path.realpath(e["file"])
        if f.endswith(".cu") and f.startswith(root) and f not in seen:
            seen[f] = e
    return [seen[f] for f in sorted(seen)]


def gpujpeg(src, out, nvcc):
    top = os.path.join(src.rstrip("/"), "src") + "/"
    return sorted((e for e in cmake_entries(src, out, nvcc, [])
                   if e["file"].endswith(".cu") and os.path.realpath(e["file"]).startswith(top)),
                  key=lambda e: e["file"])


def source_cu(entries, top, leave_out=()):
    """The entries of .cu files under TOP, each file once, sorted."""
    top = top.rstrip("/") + "/"
    seen = {}
    for e in entries:
        f = os.path.realpath(os.path.join(e.get("directory", ""), e["file"]))
        if (f.endswith(".cu") and f.startswith(top) and f not in seen
                and not any(f.startswith(top + d) for d in leave_out)):
            seen[f] = dict(e, file=f)
    return [seen[f] for f in sorted(seen)]


def arguments_of(entry):
    """A compile_commands.json entry's command as a list."""
    return entry["arguments"] if "arguments" in entry else shlex.split(entry["command"])


def make_nvcc_lines(cwd, make_args, nvcc, std=None):
    """The nvcc line of each .cu file (`-c X.cu`) that `make -n -B MAKE_ARGS` prints in CWD,
    each file once, sorted; STD = (old, new) replaces a -std option."""
    dry = subprocess.run(["make", "-n", "-B"] + make_args, cwd=cwd, capture_output=True,
                         text=True, check=True).stdout
    db = {}
    for line in dry.splitlines():
        args = shlex.split(line)
        if not args or args[0] != nvcc or "-c" not in args:
            continue
        if std:
            args = [std[1] if a == std[0] else a for a in args]
        f = os.path.normpath(os.path.join(cwd, args[args.index("-c") + 1]))
        if f.endswith(".cu"):
            db.setdefault(f, {"directory": cwd, "file": f, "arguments": args})
    return [db[f] for f in sorted(db)]


def fastertransformer(src, out, nvcc):
    if not os.path.exists(os.path.join(src, "3rdparty", "cutlass", "include", "cutlass",
                                       "cutlass.h")):
        sys.exit("compdb.py: %s/3rdparty/cutlass/include missing: unpack its submodule "
                 "(NVIDIA/cutlass cc85b64c) there" % src)
    entries = cmake_entries(src, out, nvcc, [
        "-DSM=80", "-DGIT_AUTOCLONE_CUTLASS=OFF",
        "-DFETCHCONTENT_SOURCE_DIR_GOOGLETEST=/usr/src/googletest",
        "-DFETCHCONTENT_FULLY_DISCONNECTED=ON"])
    db = source_cu(entries, os.path.join(src, "src", "fastertransformer"),
                   leave_out=("kernels/cutlass_kernels/",))
    for e in db:
        # CUDA 13's CCCL needs C++17 (the header above)
        e["command"] = e["command"].replace("-std=c++14", "-std=c++17")
    return db


def amgx(src, out, nvcc):
    return source_cu(cmake_entries(src, out, nvcc, ["-DCMAKE_NO_MPI=ON"]), src,
                     leave_out=("src/tests/",))


def ginkgo(src, out, nvcc):
    if not os.path.exists(os.path.join(src, "common", "cuda_hip", "CMakeLists.txt")):
        sys.exit("compdb.py: %s/common/cuda_hip missing: not a ginkgo checkout" % src)
    entries = cmake_entries(src, out, nvcc, [
        "-DGINKGO_BUILD_CUDA=ON", "-DGINKGO_BUILD_HIP=OFF", "-DGINKGO_BUILD_SYCL=OFF",
        "-DGINKGO_BUILD_MPI=OFF", "-DGINKGO_BUILD_TESTS=OFF", "-DGINKGO_BUILD_BENCHMARKS=OFF",
        "-DGINKGO_BUILD_EXAMPLES=OFF", "-DGINKGO_SPLIT_TEMPLATE_INSTANTIATIONS=OFF"])
    build = os.path.realpath(os.path.join(out, "cmake")) + "/"
    root = src.rstrip("/") + "/"
    seen = {}
    for e in entries:
        cmd = e.get("command") or " ".join(e["arguments"])
        if os.path.basename(shlex.split(cmd)[0]) != os.path.basename(nvcc):
            continue
        f = os.path.realpath(os.path.join(e.get("directory", ""), e["file"]))
        if f.startswith(build):
            # the Jacobi copies: keep block size 32's (the header)
            if not (os.path.basename(f).startswith("jacobi_")
                    and f.endswith(".instantiate.32.cpp")):
                continue
        elif not f.startswith(root):
            continue
        seen.setdefault(f, dict(e, file=f))
    return [seen[f] for f in sorted(seen)]


def physx(src, out, nvcc):
    root = os.path.join(src.rstrip("/"), "physx")
    if not os.path.exists(os.path.join(root, "source", "compiler", "cmakegpu", "CMakeLists.txt")):
        sys.exit("compdb.py: %s/source/compiler/cmakegpu missing: not a PhysX checkout" % root)
    lib = os.path.realpath(os.path.join(out, "cmake"))
    # cmake_generate_projects.py's command for the linux-gcc preset (the header)
    entries = cmake_entries(os.path.join(root, "compiler", "public"), out, nvcc, [
        "--no-warn-unused-cli", "-DTARGET_BUILD_PLATFORM=linux", "-DPX_OUTPUT_ARCH=x86",
        "-DPHYSX_ROOT_DIR=" + root, "-DPX_OUTPUT_LIB_DIR=" + lib, "-DPX_OUTPUT_BIN_DIR=" + lib,
        "-DPX_BUILDSNIPPETS=FALSE", "-DPX_BUILDPVDRUNTIME=FALSE",
        "-DPX_GENERATE_STATIC_LIBRARIES=TRUE", "-DPX_GENERATE_GPU_PROJECTS=TRUE",
        "-DPX_GENERATE_GPU_PROJECTS_ONLY=FALSE", "-DPX_SCALAR_MATH=FALSE",
        "-DNV_USE_STATIC_WINCRT=TRUE", "-DNV_USE_DEBUG_WINCRT=TRUE",
        "-DPX_FLOAT_POINT_PRECISE_MATH=FALSE", "-DPX_GENERATE_GPU_STATIC_LIBRARIES=FALSE",
        "-DPX_GENERATE_GPU_REDUCED_ARCHITECTURES=TRUE",
        "-DCMAKE_INSTALL_PREFIX=" + os.path.join(root, "install", "linux-gcc", "PhysX"),
        "-DCMAKE_BUILD_TYPE=release"])
    return source_cu(entries, os.path.join(root, "source"))


def tensorrt(src, out, nvcc):
    top = os.path.join(src, "plugin")
    if not os.path.exists(os.path.join(top, "CMakeLists.txt")):
        sys.exit("compdb.py: %s/plugin/CMakeLists.txt missing: not a TensorRT checkout" % src)
    cuda_inc = os.path.join(os.path.dirname(os.path.dirname(nvcc)), "include")
    # the .cu files that plugin/**/CMakeLists.txt give trt_plugins (the header)
    files = set()
    for d, _, names in os.walk(top):
        if "CMakeLists.txt" not in names:
            continue
        with open(os.path.join(d, "CMakeLists.txt")) as f:
            text = re.sub(r"#[^\n]*", "", f.read())
        for block in re.findall(r"\badd_plugin_source\s*\(([^)]*)\)", text):
            files.update(os.path.join(d, n) for n in block.split() if n.endswith(".cu"))
    db = []
    for f in sorted(files):
        if not os.path.exists(f):
            continue
        obj = "CMakeFiles/trt_plugins.dir" + f + ".o"
        cmd = ("%s -forward-unknown-to-host-compiler -DENABLE_SM80 -I%s/third_party -I%s/plugin "
               "-isystem=%s/include -isystem=%s  --expt-relaxed-constexpr -Xcompiler "
               "-Wno-deprecated-declarations -O3 -DNDEBUG "
               "--generate-code=arch=compute_80,code=[compute_80,sm_80] -Xcompiler=-fPIC "
               "--expt-relaxed-constexpr -x cu -c %s -o %s"
               % (nvcc, src, src, src, cuda_inc, f, obj))
        db.append({"directory": out, "command": cmd, "file": f})
    return db


def gromacs(src, out, nvcc):
    top = os.path.join(src, "CMakeLists.txt")
    if not os.path.exists(os.path.join(src, "src", "gromacs", "nbnxm", "cuda")):
        sys.exit("compdb.py: %s/src/gromacs/nbnxm/cuda missing: not a gromacs checkout" % src)
    # the shadow of the checkout with CMake 3.25 as its minimum (the header)
    shadow = os.path.join(out, "source")
    if os.path.isdir(shadow):
        for n in os.listdir(shadow):
            os.remove(os.path.join(shadow, n))
    else:
        os.makedirs(shadow)
    for n in os.listdir(src):
        if n != "CMakeLists.txt":
            os.symlink(os.path.join(src, n), os.path.join(shadow, n))
    with open(top) as f:
        text = f.read()
    for cmd in ("cmake_minimum_required(VERSION 3.28)", "cmake_policy(VERSION 3.28)"):
        if cmd not in text:
            sys.exit("compdb.py: %s has no %s" % (top, cmd))
        text = text.replace(cmd, cmd.replace("3.28", "3.25"), 1)
    with open(os.path.join(shadow, "CMakeLists.txt"), "w") as f:
        f.write(text)
    entries = cmake_entries(shadow, out, nvcc, [
        "-DGMX_GPU=CUDA", "-DGMX_FFT_LIBRARY=fftpack", "-DGMX_BUILD_OWN_FFTW=OFF",
        "-DGMX_MPI=OFF", "-DBUILD_TESTING=OFF", "-DGMX_INSTALL_LEGACY_API=OFF"])
    root = src.rstrip("/") + "/"
    seen = {}
    for e in entries:
        cmd = (e.get("command") or " ".join(e["arguments"])).replace(shadow + "/", root)
        f = os.path.realpath(os.path.join(e.get("directory", ""), e["file"]))
        if (os.path.basename(shlex.split(cmd)[0]) == os.path.basename(nvcc)
                and f.endswith(".cu") and f.startswith(root + "src/")):
            seen.setdefault(f, {"directory": e["directory"], "command": cmd, "file": f})
    return [seen[f] for f in sorted(seen)]


def xgboost(src, out, nvcc):
    if not os.path.exists(os.path.join(src, "dmlc-core", "include", "dmlc", "base.h")):
        sys.exit("compdb.py: %s/dmlc-core missing: unpack its submodule there" % src)
    return source_cu(cmake_entries(src, out, nvcc, ["-DUSE_CUDA=ON"]), os.path.join(src, "src"))


# The HeCBench benchmarks whose README entry says "in the Rodinia benchmark suite" (or, for
# hotspot3D, extends its HotSpot); dwt2d, mummergpu and huffman are not in HeCBench.
HECBENCH_RODINIA = (
    "b+tree", "backprop", "bfs", "cfd", "gaussian", "heartwall", "hotspot", "hotspot3D",
    "hybridsort", "kmeans", "lavaMD", "leukocyte", "lud", "myocyte", "nn", "nw",
    "particlefilter", "pathfinder", "srad", "streamcluster")

HECBENCH_HOOK = """# written by warplint's bench/precision/compdb.py: a STATIC library whose sources
# are in a DVC archive absent here gets one empty C file, so that the generate step runs
function(add_library name)
  if(ARGC EQUAL 2 AND "${ARGV1}" STREQUAL "STATIC")
    message(STATUS "compdb.py: ${name} has no sources here: an empty C library")
    file(WRITE "${CMAKE_BINARY_DIR}/compdb-empty.c" "")
    _add_library(${name} STATIC "${CMAKE_BINARY_DIR}/compdb-empty.c")
  else()
    _add_library(${ARGV})
  endif()
endfunction()
"""


def hecbench(src, out, nvcc):
    if not os.path.exists(os.path.join(src, "CMakePresets.json")):
        sys.exit("compdb.py: %s/CMakePresets.json missing: not a HeCBench checkout" % src)
    hook = os.path.join(out, "compdb-hook.cmake")
    with open(hook, "w") as f:
        f.write(HECBENCH_HOOK)
    entries = cmake_entries(src, out, nvcc, [
        "-DHECBENCH_ENABLE_CUDA=ON", "-DHECBENCH_ENABLE_HIP=OFF", "-DHECBENCH_ENABLE_SYCL=OFF",
        "-DHECBENCH_ENABLE_OPENMP=OFF", "-DHECBENCH_CUDA_ARCH=80",
        "-DCMAKE_PROJECT_INCLUDE=" + hook])
    top = os.path.join(src, "src")
    leave_out = tuple(b + "-cuda/" for b in HECBENCH_RODINIA)
    return [e for e in source_cu(entries, top, leave_out)
            if os.path.relpath(e["file"], top).split(os.sep)[0].endswith("-cuda")]


def darknet(src, out, nvcc):
    arch = "ARCH=-gencode arch=compute_80,code=[sm_80,compute_80]"
    return make_nvcc_lines(src, ["GPU=1", "NVCC=" + nvcc, arch], nvcc)


KALDI_MK = """# written by warplint's bench/precision/compdb.py: the part of configure's kaldi.mk
# that the .cu rules read (see the script's header)
CXX = g++
DOUBLE_PRECISION = 0
OPENFSTVER = 10804
OPENFSTINC = {src}/tools/openfst/include
CUBROOT = {src}/tools/cub
IS_GPU_BUILD = true
CUDA = true
WITH_CUDADECODER = true
CUDATKDIR = {cudatk}
CUDA_ARCH = -gencode arch=compute_80,code=sm_80
HOST_ARCH = x86_64

"""


def kaldi(src, out, nvcc):
    top = os.path.join(src, "src")
    if not os.path.exists(os.path.join(top, "makefiles", "cuda_64bit.mk")):
        sys.exit("compdb.py: %s/src/makefiles/cuda_64bit.mk missing: not a kaldi checkout" % src)
    cudatk = os.path.dirname(os.path.dirname(nvcc))
    with open(os.path.join(top, "makefiles", "cuda_64bit.mk")) as f:
        rules = f.read()
    with open(os.path.join(top, "kaldi.mk"), "w") as f:
        f.write(KALDI_MK.format(src=src, cudatk=cudatk) + rules)
        f.write("\n# CUDA 13's CCCL needs C++17 (compdb.py's header)\n"
                "CUDA_FLAGS := $(subst -std=c++14,-std=c++17,$(CUDA_FLAGS))\n")
    db = []
    for d in ("cudamatrix", "chain", "cudafeat", "cudadecoder"):
        cwd = os.path.join(top, d)
        for name in sorted(os.listdir(cwd)):
            if not name.endswith(".cu"):
                continue
            dry = subprocess.run(["make", "-n", "-B", name[:-3] + ".o"], cwd=cwd,
                                 capture_output=True, text=True, check=True).stdout
            for line in dry.splitlines():
                args = shlex.split(line)
                if args and args[0] == nvcc and "-c" in args:
                    db.append({"directory": cwd, "file": os.path.join(cwd, name),
                               "arguments": args})
    return sorted(db, key=lambda e: e["file"])


# compdb.py's stand-in for FindCUDA's cuda_execute_process: instead of running a command,
# it writes the command's arguments, as execute_process would pass them, one JSON list a line
MNN_ARGV = "import json, sys; print(json.dumps(sys.argv[1:]))"


def mnn(src, out, nvcc):
    cuda = os.path.join(src, "source", "backend", "cuda")
    if not os.path.exists(os.path.join(cuda, "CMakeLists.txt")):
        sys.exit("compdb.py: %s/source/backend/cuda missing: not an MNN checkout" % src)
    cutlass = os.path.join(src, "3rd_party", "cutlass", "v2.9.0", "include", "cutlass",
                           "cutlass.h")
    if not os.path.exists(cutlass):
        sys.exit("compdb.py: %s missing: unpack NVIDIA/cutlass 319a389f (v2.9.0) into "
                 "%s/3rd_party/cutlass/v2.9.0" % (cutlass, src))
    build = os.path.join(out, "cmake")
    subprocess.run(["cmake", "-S", src, "-B", build, "-DCMAKE_EXPORT_COMPILE_COMMANDS=ON",
                    "-DCUDA_NVCC_EXECUTABLE=" + nvcc,
                    "-DCUDA_TOOLKIT_ROOT_DIR=" + os.path.dirname(os.path.dirname(nvcc)),
                    "-DMNN_CUDA=ON", "-DMNN_CUDA_NATIVE_ARCH=ON", "-DCUDA_ARCHS=8.0",
                    "-DFETCHCONTENT_FULLY_DISCONNECTED=ON"],
                   stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, check=False)
    target = os.path.join(build, "source", "backend", "cuda", "CMakeFiles", "MNN_Cuda_Main.dir")
    rules = os.path.join(target, "build.make")
    if not os.path.exists(rules):
        sys.exit("compdb.py: cmake wrote no %s (see cmake -S %s -B %s)" % (rules, src, build))
    # each .cu's rule: cd DIR && cmake -D verbose:BOOL=$(VERBOSE) -D ... -P X.cu.o.cmake
    rule = re.compile(r"^\tcd (\S+) && (\S+) (-D verbose.*) -P (\S+\.cu\.o\.cmake)$")
    db = []
    with open(rules) as f:
        lines = f.read().splitlines()
    for line in lines:
        m = rule.match(line)
        if not m:
            continue
        cwd, cmake, defs, script = m.groups()
        with open(script) as f:
            text = f.read()
        run = "execute_process(COMMAND ${ARGN} RESULT_VARIABLE CUDA_result )"
        if run not in text:
            sys.exit("compdb.py: %s has no %s" % (script, run))
        text = text.replace(run, "execute_process(COMMAND \"%s\" -c \"%s\" ${ARGN} "
                            "RESULT_VARIABLE CUDA_result )" % (sys.executable, MNN_ARGV))
        copy = script + ".compdb"
        with open(copy, "w") as f:
            f.write(text)
        args = [cmake] + shlex.split(defs.replace("$(VERBOSE)", "")) + ["-P", copy]
        printed = subprocess.run(args, cwd=cwd, capture_output=True, text=True,
                                 check=True).stdout
        os.remove(copy)
        for p in printed.splitlines():
            argv = json.loads(p)
            if argv and argv[0] == nvcc and "-c" in argv and "-M" not in argv:
                f = os.path.realpath(argv[1])
                db.append({"directory": cwd, "file": f, "arguments": argv})
    return sorted(db, key=lambda e: e["file"])


def mumax(src, out, nvcc):
    cwd = os.path.join(src, "cuda")
    if not os.path.exists(os.path.join(cwd, "Makefile")):
        sys.exit("compdb.py: %s/cuda/Makefile missing: not a mumax3 checkout" % src)
    cuda_home = os.path.dirname(os.path.dirname(nvcc))
    dry = subprocess.run(["make", "-n", "-B", "CUDA_CC=80", "CUDA_HOME=" + cuda_home,
                          "wrappers"], cwd=cwd, capture_output=True, text=True,
                         check=True).stdout
    # each .cu's loop, as make -n prints it: `for cc in 80; do \`, then `echo <nvcc line> ;\`
    lines = dry.splitlines()
    db = {}
    for i, line in enumerate(lines):
        m = re.match(r"^for cc in (.*); do \\$", line)
        if not m or i + 1 >= len(lines):
            continue
        echo = re.match(r"^\s*echo (.*?)\s*;\\$", lines[i + 1])
        if not echo:
            sys.exit("compdb.py: no echo after %r in make -n's output" % line)
        for cc in m.group(1).split():
            args = shlex.split(echo.group(1).replace("$cc", cc))
            if not args or args[0] != nvcc:
                continue
            f = os.path.join(cwd, [a for a in args if a.endswith(".cu")][0])
            db.setdefault(f, {"directory": cwd, "file": f, "arguments": args})
    return [db[f] for f in sorted(db)]


def gpumd(src, out, nvcc):
    cwd = os.path.join(src, "src")
    if not os.path.exists(os.path.join(cwd, "makefile")):
        sys.exit("compdb.py: %s/src/makefile missing: not a GPUMD checkout" % src)
    return make_nvcc_lines(cwd, ["CC=" + nvcc, "CUDA_ARCH=-arch=sm_80", "gpumd", "nep"], nvcc,
                           std=("-std=c++14", "-std=c++17"))


CCMINER_CONFIG = """/* written by warplint's bench/precision/compdb.py: what ccminer's configure.ac
   checks give on Debian 12 (glibc, x86_64); see the script's header */
#define PACKAGE "ccminer"
#define PACKAGE_BUGREPORT ""
#define PACKAGE_NAME "ccminer"
#define PACKAGE_STRING "ccminer 2.3.1"
#define PACKAGE_TARNAME "ccminer"
#define PACKAGE_URL "http://github.com/tpruvot/ccminer"
#define PACKAGE_VERSION "2.3.1"
#define VERSION "2.3.1"
#define STDC_HEADERS 1
#define HAVE_STDIO_H 1
#define HAVE_STDLIB_H 1
#define HAVE_STRING_H 1
#define HAVE_INTTYPES_H 1
#define HAVE_STDINT_H 1
#define HAVE_STRINGS_H 1
#define HAVE_SYS_STAT_H 1
#define HAVE_SYS_TYPES_H 1
#define HAVE_UNISTD_H 1
#define HAVE_SYS_PARAM_H 1
#define HAVE_SYSLOG_H 1
#define HAVE_DECL_BE32DEC 0
#define HAVE_DECL_LE32DEC 0
#define HAVE_DECL_BE32ENC 0
#define HAVE_DECL_LE32ENC 0
#define HAVE_ALLOCA 1
#define HAVE_ALLOCA_H 1
#define HAVE_GETOPT_LONG 1
"""


def ccminer(src, out, nvcc):
    path = os.path.join(src, "Makefile.am")
    if not os.path.exists(os.path.join(src, "cuda_helper.h")) or not os.path.exists(path):
        sys.exit("compdb.py: %s/Makefile.am or cuda_helper.h missing: not a ccminer checkout" % src)
    am = open(path).read().replace("\\\n", " ")
    toolkit = os.path.dirname(os.path.dirname(nvcc))
    sources = []
    for m in re.finditer(r"^ccminer_SOURCES\s*\+?=(.*)$", am, re.M):
        sources += [f for f in m.group(1).split() if f.endswith(".cu")]
    with open(os.path.join(src, "ccminer-config.h"), "w") as f:
        f.write(CCMINER_CONFIG)
    rules = {}
    for m in re.finditer(r"^\S+\.o:\s*(\S+\.cu)\s*\n\t(.*)$", am, re.M):
        rules[m.group(1)] = m.group(2)
    default = re.search(r"^\.cu\.o:\s*\n\t(.*)$", am, re.M).group(1)
    arch = "-gencode=arch=compute_80,code=sm_80"
    flags = ("$(nvcc_ARCH) @CUDA_INCLUDES@ -I. @CUDA_CFLAGS@ $(JANSSON_INCLUDES) "
             "--ptxas-options=-v")
    subst = [("$(nvcc_FLAGS)", flags), ("$(nvcc_ARCH)", arch),
             ("@CUDA_INCLUDES@", "-I" + os.path.join(toolkit, "include")),
             ("@CUDA_CFLAGS@", "-O3 -lineno -Xcompiler -Wall -D_FORCE_INLINES"),
             ("$(JANSSON_INCLUDES)", "-I./compat/jansson"), ("$(NVCC)", nvcc)]
    db = {}
    for cu in sources:
        line = rules.get(cu, default)
        for k, v in subst:
            line = line.replace(k, v)
        line = line.replace("$@", cu[:-3] + ".o").replace("$<", cu)
        args = [arch if a.startswith("-gencode=") else a for a in shlex.split(line)]
        f = os.path.join(src, cu)
        db.setdefault(f, {"directory": src, "file": f, "arguments": args})
    return [db[f] for f in sorted(db)]


def autodock(src, out, nvcc):
    if not os.path.exists(os.path.join(src, "Makefile.Cuda")):
        sys.exit("compdb.py: %s/Makefile.Cuda missing: not an AutoDock-GPU checkout" % src)
    toolkit = os.path.dirname(os.path.dirname(nvcc))
    return make_nvcc_lines(src, ["DEVICE=CUDA", "NUMWI=64", "TARGETS=80", "NVCC=" + nvcc,
                                 "GPU_INCLUDE_PATH=" + os.path.join(toolkit, "include"),
                                 "GPU_LIBRARY_PATH=" + os.path.join(toolkit, "lib64"), "kernels"],
                           nvcc, std=("-std=c++11", "-std=c++17"))


def moderngpu(src, out, nvcc):
    if not os.path.exists(os.path.join(src, "src", "moderngpu", "kernel_mergesort.hxx")):
        sys.exit("compdb.py: %s/src/moderngpu missing: not a moderngpu checkout" % src)
    db = []
    for e in source_cu(cmake_entries(src, out, nvcc, []), src):
        args = arguments_of(e)
        kept, one = [], "--generate-code=arch=compute_80,code=[compute_80,sm_80]"
        for a in args:
            if a.startswith("--generate-code="):
                if one:
                    kept.append(one)
                    one = None
                continue
            kept.append(a)
        db.append({"directory": e["directory"], "file": e["file"], "arguments": kept})
    return db


def require_parts(src, parts, where):
    """Stops with a message naming each (path, what) of parts missing under src."""
    for need, what in parts:
        if not os.path.exists(os.path.join(src, need)):
            sys.exit("compdb.py: %s/%s missing: put %s there (%s)" % (src, need, what, where))


def env_without_tcnn_arch():
    """The environment less TCNN_CUDA_ARCHITECTURES, which would override the
    -DTCNN_CUDA_ARCHITECTURES the recipe passes."""
    env = dict(os.environ)
    env.pop("TCNN_CUDA_ARCHITECTURES", None)
    return env


def tcnn(src, out, nvcc):
    src = src.rstrip("/")
    for need in ("src/encoding.cu", "include/tiny-cuda-nn/common.h"):
        if not os.path.exists(os.path.join(src, need)):
            sys.exit("compdb.py: %s/%s missing: not a tiny-cuda-nn checkout" % (src, need))
    require_parts(src, (("dependencies/cutlass/include/cutlass/cutlass.h", "NVIDIA/cutlass 82f50759"),
                        ("dependencies/fmt/CMakeLists.txt", "fmtlib/fmt fa2eb2d2"),
                        ("dependencies/cmrc/CMakeRC.cmake", "vector-of-bool/cmrc 952ffddb")),
                  "the submodule")
    entries = cmake_entries(src, out, nvcc, ["-DTCNN_CUDA_ARCHITECTURES=80",
                                             "-DTCNN_BUILD_EXAMPLES=OFF",
                                             "-DTCNN_BUILD_BENCHMARK=OFF",
                                             "-DTCNN_BUILD_TESTS=OFF"], env=env_without_tcnn_arch())
    return [{"directory": e["directory"], "file": e["file"], "arguments": arguments_of(e)}
            for e in source_cu(entries, src)]


def findcuda_entries(src, out, nvcc, options, target, nvcc_flags=None, cuda_flags=None,
                     format_flag=False, env=None, release_flags=False):
    """Configures SRC into OUT/cmake (Unix Makefiles, Release, nvcc's toolkit) with OPTIONS and
    returns the line of each .cu of a FindCUDA target (cuda_add_library: no compile_commands
    entry), put together from the script FindCUDA writes per file under OUT/cmake/TARGET
    (...X.cu.o.Release.cmake): nvcc, nvcc_flags, -D and -I of the compile definitions and
    include directories (each once), -Xcompiler and the host flags comma-joined,
    CUDA_NVCC_FLAGS split at ; and spaces, -x cu -c X.cu -o X.cu.o. NVCC_FLAGS and CUDA_FLAGS,
    functions of a list, change those two lists. FORMAT_FLAG: the script's format_flag
    (-dc where the target has CUDA_SEPARABLE_COMPILATION) in place of -c. ENV: the configure's
    environment (else this one). RELEASE_FLAGS: CUDA_NVCC_FLAGS_RELEASE after CUDA_NVCC_FLAGS,
    as FindCUDA's run_nvcc.cmake appends them in a Release build. Sorted by file."""
    build = os.path.join(out, "cmake")
    toolkit = os.path.dirname(os.path.dirname(nvcc))
    subprocess.run(["cmake", "-S", src, "-B", build, "-DCMAKE_BUILD_TYPE=Release",
                    "-DCUDA_TOOLKIT_ROOT_DIR=" + toolkit, "-Wno-dev"] + options,
                   env=env, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, check=False)
    scripts = glob.glob(os.path.join(build, target, "**", "*.cu.o.Release.cmake"), recursive=True)
    if not scripts:
        sys.exit("compdb.py: cmake wrote no %s/**/*.cu.o.Release.cmake (see cmake -S %s -B %s)"
                 % (os.path.join(build, target), src, build))
    db = []
    for script in scripts:
        with open(script) as f:
            text = f.read()

        def value(name, optional=False):
            # set(NAME VALUE) or, for the two lists FindCUDA quotes, set(NAME [==[VALUE]==])
            m = re.search(r"^set\(%s (?:\[==\[(.*?)\]==\]|(.*?))\)(?: #|$)" % name, text, re.M)
            if not m and optional:
                return ""
            if not m:
                sys.exit("compdb.py: %s sets no %s" % (script, name))
            if m.group(1) is not None:
                return m.group(1)
            # an older FindCUDA.cmake (jetson-utils' own) quotes the include list "a;b"
            v = m.group(2)
            return v[1:-1] if len(v) > 1 and v[0] == v[-1] == '"' else v

        def once(items):
            return list(dict.fromkeys(i for i in items if i))

        cu = value("source_file").strip('"')
        flags = [a for a in value("nvcc_flags").split(";") if a]
        extra = value("CUDA_NVCC_FLAGS").replace(";", " ").split()
        if release_flags:
            extra += value("CUDA_NVCC_FLAGS_RELEASE").replace(";", " ").split()
        # QUICK's scripts set no CMAKE_HOST_FLAGS_RELEASE (its CMake empties the Release flags)
        host = (value("CMAKE_HOST_FLAGS").split()
                + value("CMAKE_HOST_FLAGS_RELEASE", optional=True).split())
        args = [nvcc] + (nvcc_flags(flags) if nvcc_flags else flags)
        args += ["-D" + d for d in once(value("CUDA_NVCC_COMPILE_DEFINITIONS").split(";"))]
        args += ["-I" + i for i in once(value("CUDA_NVCC_INCLUDE_DIRS").split(";"))]
        if host:
            args += ["-Xcompiler", ",".join(host)]
        args += cuda_flags(extra) if cuda_flags else extra
        compile_flag = value("format_flag").strip('"') if format_flag else "-c"
        args += ["-x", "cu", compile_flag, cu, "-o", os.path.basename(cu) + ".o"]
        db.append({"directory": build, "file": cu, "arguments": args})
    return sorted(db, key=lambda e: e["file"])


def xmrig_cuda(src, out, nvcc):
    if not os.path.exists(os.path.join(src, "src", "cuda_core.cu")):
        sys.exit("compdb.py: %s/src/cuda_core.cu missing: not an xmrig-cuda checkout" % src)
    stub = os.path.join(os.path.dirname(os.path.dirname(nvcc)), "lib64", "stubs", "libcuda.so")
    # FindCUDA's --std c++11 made c++17 (the header)
    return findcuda_entries(src, out, nvcc, ["-DCUDA_ARCH=80", "-DCUDA_LIB=" + stub],
                            os.path.join("CMakeFiles", "xmrig-cu.dir"),
                            nvcc_flags=lambda a: ["c++17" if x == "c++11" else x for x in a])


def thundersvm(src, out, nvcc):
    if not os.path.exists(os.path.join(src, "src", "thundersvm", "kernel", "smo_kernel.cu")):
        sys.exit("compdb.py: %s/src/thundersvm/kernel missing: not a thundersvm checkout" % src)
    return xtra_computing_entries(src, out, nvcc, "thundersvm")


def xtra_computing_entries(src, out, nvcc, name):
    """thundersvm's and thundergbm's FindCUDA library: its -std=c++14 out, -std=c++17 and
    an arch after its flags (their headers)."""
    return findcuda_entries(src, out, nvcc, [],
                            os.path.join("src", name, "CMakeFiles", name + ".dir"),
                            cuda_flags=lambda a: [x for x in a if not x.startswith("-std=")]
                            + ["-std=c++17", "-arch=sm_80"])


def bitsandbytes(src, out, nvcc):
    if not os.path.exists(os.path.join(src, "csrc", "kernels.cu")):
        sys.exit("compdb.py: %s/csrc/kernels.cu missing: not a bitsandbytes checkout" % src)
    entries = cmake_entries(src, out, nvcc, ["-DCOMPUTE_BACKEND=cuda", "-DCOMPUTE_CAPABILITY=80"])
    return [{"directory": e["directory"], "file": e["file"], "arguments": arguments_of(e)}
            for e in source_cu(entries, os.path.join(src, "csrc"))]


PYBIND11_SHIM = {
    # Debian's pybind11 (2.10.3) under the version HOOMD's find_package asks for (the header)
    "pybind11Config.cmake": 'include("/usr/lib/cmake/pybind11/pybind11Config.cmake")\n',
    "pybind11ConfigVersion.cmake": 'set(PACKAGE_VERSION "2.12.0")\n'
                                   'set(PACKAGE_VERSION_COMPATIBLE TRUE)\n'
                                   'set(PACKAGE_VERSION_EXACT FALSE)\n',
}


def hoomd(src, out, nvcc):
    if not os.path.exists(os.path.join(src, "hoomd", "CMakeLists.txt")):
        sys.exit("compdb.py: %s/hoomd/CMakeLists.txt missing: not a hoomd-blue checkout" % src)
    for need in ("HIP/include", "hipCUB/hipcub/include", "hipper", "neighbor", "random123",
                 "upp11", "nano-signal-slot", "quickhull"):
        d = os.path.join(src, "hoomd", "extern", need)
        if not os.path.isdir(d) or not os.listdir(d):
            sys.exit("compdb.py: %s/hoomd/extern/%s is empty: put the submodule there "
                     "(the commits are in this script's header)" % (src, need))
    shim = os.path.join(out, "pybind11-shim")
    os.makedirs(shim, exist_ok=True)
    for name, text in PYBIND11_SHIM.items():
        with open(os.path.join(shim, name), "w") as f:
            f.write(text)
    entries = cmake_entries(src, out, nvcc, ["-DENABLE_GPU=ON", "-DCUDA_ARCH_LIST=80",
                                             "-DBUILD_TESTING=OFF", "-Dpybind11_DIR=" + shim])
    # the checkout's .cu files and the instances the configure writes into OUTDIR/cmake
    db = source_cu(entries, src) + source_cu(entries, os.path.join(out, "cmake"))
    # CUDA 13's CCCL needs C++17 (the header above)
    return sorted(({"directory": e["directory"], "file": e["file"],
                    "arguments": ["-std=c++17" if a == "-std=c++14" else a
                                  for a in arguments_of(e)]} for e in db),
                  key=lambda e: e["file"])


def opencv_contrib_generated(gen, modules):
    """Writes into GEN the headers OpenCV's CMake generates for a CUDA build of MODULES (the
    header above): cvconfig.h, cv_cpu_config.h and opencv2/opencv_modules.hpp."""
    os.makedirs(os.path.join(gen, "opencv2", "core", "cuda"), exist_ok=True)
    config = ["HAVE_CUDA", "HAVE_CUBLAS", "HAVE_CUFFT", 'CUDA_ARCH_BIN " 80"',
              'CUDA_ARCH_FEATURES " 80"', 'CUDA_ARCH_PTX ""']
    with open(os.path.join(gen, "cvconfig.h"), "w") as f:
        f.write("#ifndef OPENCV_CVCONFIG_H_INCLUDED\n#define OPENCV_CVCONFIG_H_INCLUDED\n"
                + "".join("#define %s\n" % c for c in config) + "#endif\n")
    baseline = ("SSE", "SSE2", "SSE3")
    with open(os.path.join(gen, "cv_cpu_config.h"), "w") as f:
        f.write("// OpenCV CPU baseline features\n")
        for b in baseline:
            f.write("#define CV_CPU_COMPILE_%s 1\n#define CV_CPU_BASELINE_COMPILE_%s 1\n" % (b, b))
        f.write("#define CV_CPU_BASELINE_FEATURES 0 \\\n"
                + "".join("    , CV_CPU_%s \\\n" % b for b in baseline) + "\n")
        f.write("// OpenCV supported CPU dispatched features\n"
                "#define CV_CPU_DISPATCH_FEATURES 0 \\\n\n")
    with open("/usr/include/opencv4/opencv2/opencv_modules.hpp") as f:
        listed = f.read()
    ours = "".join("#define HAVE_OPENCV_%s\n" % m.upper() for m in modules)
    if "#endif" in listed:
        listed = listed.replace("\n#endif", "\n" + ours + "\n#endif", 1)
    else:
        listed += ours
    with open(os.path.join(gen, "opencv2", "opencv_modules.hpp"), "w") as f:
        f.write(listed)


def opencv_contrib(src, out, nvcc, headers=None):
    modules = sorted(os.path.basename(d) for d in glob.glob(os.path.join(src, "modules", "cud*")))
    if "cudev" not in modules:
        sys.exit("compdb.py: %s/modules/cudev missing: not an opencv_contrib checkout" % src)
    gen = os.path.join(out, "gen")
    opencv_contrib_generated(gen, modules)
    # the two opencv/opencv headers (the header above), copied as they are
    for name, where in (("private.cuda.hpp", "opencv2/core"),
                        ("cuda_compat.hpp", "opencv2/core/cuda")):
        dst = os.path.join(gen, where, name)
        if headers:
            if not os.path.exists(os.path.join(headers, name)):
                sys.exit("compdb.py: %s/%s missing (--opencv-headers)" % (headers, name))
            shutil.copyfile(os.path.join(headers, name), dst)
        elif not os.path.exists(dst):
            sys.exit("compdb.py: %s missing: give --opencv-headers DIR, DIR holding %s of "
                     "opencv/opencv (this script's header names the commit)" % (dst, name))
    includes = [os.path.join(src, "modules", m, "include") for m in modules]
    db = []
    for m in modules:
        top = os.path.join(src, "modules", m)
        for cu in sorted(glob.glob(os.path.join(top, "src", "cuda", "*.cu"))):
            args = [nvcc, "-gencode", "arch=compute_80,code=sm_80", "-std=c++17",
                    "--expt-relaxed-constexpr", "-O3", "-DNDEBUG", "-D__OPENCV_BUILD=1",
                    "-DCVAPI_EXPORTS", "-Xcompiler", "-fPIC", "-I" + gen,
                    "-I" + os.path.join(top, "src"), "-I" + os.path.join(top, "src", "cuda")]
            args += ["-I" + i for i in includes] + ["-I/usr/include/opencv4"]
            args += ["-c", cu, "-o", os.path.join(out, "obj", m, os.path.basename(cu) + ".o")]
            db.append({"directory": top, "file": cu, "arguments": args})
    return db


def dlib(src, out, nvcc):
    if not os.path.exists(os.path.join(src, "dlib", "cuda", "cuda_dlib.cu")):
        sys.exit("compdb.py: %s/dlib/cuda/cuda_dlib.cu missing: not a dlib checkout" % src)
    lib = os.path.join(src, "dlib")
    entries = cmake_entries(lib, out, nvcc, ["-DDLIB_USE_CUDA=ON"])
    return [{"directory": e["directory"], "file": e["file"], "arguments": arguments_of(e)}
            for e in source_cu(entries, lib)]


def caffe(src, out, nvcc):
    for need in ("Makefile.config", ".build_release/src/caffe/proto/caffe.pb.h"):
        if not os.path.exists(os.path.join(src, need)):
            sys.exit("compdb.py: %s/%s missing: run the caffe steps in this script's header"
                     % (src, need))
    toolkit = os.path.dirname(os.path.dirname(nvcc))
    dry = subprocess.run(["make", "-n", "-B", "CUDA_DIR=" + toolkit, "lib"], cwd=src,
                         capture_output=True, text=True, check=True).stdout
    db = {}
    for line in dry.splitlines():
        if not line.startswith(nvcc + " "):
            continue
        # `$(CUDA_DIR)/bin/nvcc ... -c X.cu -o X.o 2> X.o.warnings.txt \`: the redirect out
        args = shlex.split(line.split(" 2>")[0].rstrip(" \\"))
        if "-c" not in args:
            continue
        f = os.path.normpath(os.path.join(src, args[args.index("-c") + 1]))
        if f.endswith(".cu"):
            # nvcc 13's default standard, written out (the header above)
            db.setdefault(f, {"directory": src, "file": f,
                              "arguments": [args[0], "-std=c++17"] + args[1:]})
    return [db[f] for f in sorted(db)]


def popsift(src, out, nvcc):
    if not os.path.exists(os.path.join(src, "src", "popsift", "s_desc_grid.cu")):
        sys.exit("compdb.py: %s/src/popsift/s_desc_grid.cu missing: not a popsift checkout" % src)
    # -dc as its separable compilation gives; its -std=c++14, nvcc's and the host
    # compiler's (-Xcompiler -std=c++14,...), made c++17 (the header)
    db = findcuda_entries(src, out, nvcc, ["-DPopSift_CUDA_CC_LIST=80",
                                           "-DPopSift_BUILD_EXAMPLES=OFF"],
                          os.path.join("src", "CMakeFiles", "popsift.dir"), format_flag=True)
    for e in db:
        e["arguments"] = [",".join("-std=c++17" if f == "-std=c++14" else f
                                   for f in a.split(",")) for a in e["arguments"]]
    return db


def sputnik(src, out, nvcc):
    if not os.path.exists(os.path.join(src, "sputnik", "spmm", "cuda_spmm.cu.cc")):
        sys.exit("compdb.py: %s/sputnik/spmm/cuda_spmm.cu.cc missing: not a sputnik checkout" % src)
    lib = os.path.join(os.path.dirname(os.path.dirname(nvcc)), "lib64")
    # CUDA_ARCHS=80 (its own arch variable; CMP0104 OLD), cuBLAS and cuSPARSE's shared
    # libraries for its link-only find_library of the static ones (the header)
    entries = cmake_entries(src, out, nvcc, ["-DCUDA_ARCHS=80",
                                             "-DCUBLAS_LIBRARY=" + os.path.join(lib, "libcublas.so"),
                                             "-DCUSPARSE_LIBRARY=" + os.path.join(lib, "libcusparse.so")],
                            cuda_architectures=False)
    db = {}
    for e in entries:
        f = os.path.realpath(os.path.join(e["directory"], e["file"]))
        if f.endswith(".cu.cc") and f.startswith(src.rstrip("/") + "/"):
            db.setdefault(f, {"directory": e["directory"], "file": f, "arguments": arguments_of(e)})
    return [db[f] for f in sorted(db)]


def cusz(src, out, nvcc):
    if not os.path.exists(os.path.join(src, "psz", "src", "kernel", "lrz_c.cu")):
        sys.exit("compdb.py: %s/psz/src/kernel/lrz_c.cu missing: not a cuSZ checkout" % src)
    # no NVML here: a path for CUDA::nvml's link only (the header)
    entries = cmake_entries(src, out, nvcc, ["-DBUILD_TESTING=OFF", "-DPSZ_BUILD_EXAMPLES=OFF",
                                             "-DCUDA_nvml_LIBRARY=/nonexistent/libnvidia-ml.so"])
    return [{"directory": e["directory"], "file": e["file"], "arguments": arguments_of(e)}
            for e in source_cu(entries, src)]


def cuszp(src, out, nvcc):
    if not os.path.exists(os.path.join(src, "src", "cuSZp_kernels_1D_f32.cu")):
        sys.exit("compdb.py: %s/src/cuSZp_kernels_1D_f32.cu missing: not a cuSZp checkout" % src)
    entries = cmake_entries(src, out, nvcc, [], cuda_architectures=False)
    db = []
    for e in source_cu([e for e in entries if "cuSZp_static.dir" in e.get("output", e["command"])],
                       os.path.join(src, "src")):
        # its own arch list 60..86 (a set() in CMakeLists), of which nvcc 13 compiles 75 up:
        # arch 80 only (the header)
        args = [a for a in arguments_of(e) if not a.startswith("--generate-code=")
                or a == "--generate-code=arch=compute_80,code=[compute_80,sm_80]"]
        db.append({"directory": e["directory"], "file": e["file"], "arguments": args})
    return db


def cudasift(src, out, nvcc):
    if not os.path.exists(os.path.join(src, "cudaSiftH.cu")):
        sys.exit("compdb.py: %s/cudaSiftH.cu missing: not a CudaSift checkout" % src)

    def flags(extra):
        # -arch=sm_35 made sm_80; -ccbin /usr/bin/gcc-6 left out (the header)
        res, skip = [], False
        for a in extra:
            if skip:
                skip = False
            elif a == "-ccbin":
                skip = True
            else:
                res.append("-arch=sm_80" if a == "-arch=sm_35" else a)
        return res
    return findcuda_entries(src, out, nvcc, [], os.path.join("CMakeFiles", "cudasift.dir"),
                            nvcc_flags=flags, cuda_flags=flags)


def cupdlpx(src, out, nvcc):
    if not os.path.exists(os.path.join(src, "build", "generated", "version.h")):
        sys.exit("compdb.py: %s/build/generated/version.h missing: run the make step in this "
                 "script's header" % src)
    toolkit = os.path.dirname(os.path.dirname(nvcc))
    db = make_nvcc_lines(src, ["NVCC=" + nvcc, "CUDA_HOME=" + toolkit, "build/solver.o",
                               "build/utils.o"], nvcc)
    for e in db:
        args, res, i = e["arguments"], [], 0
        while i < len(args):
            # its five -gencode pairs cut to arch 80 (the header)
            if args[i] == "-gencode":
                if args[i + 1] == "arch=compute_80,code=sm_80":
                    res += args[i:i + 2]
                i += 2
                continue
            res.append(args[i])
            i += 1
        e["arguments"] = res
    return db


def cudpp(src, out, nvcc):
    if not os.path.exists(os.path.join(src, "src", "cudpp", "app", "scan_app.cu")):
        sys.exit("compdb.py: %s/src/cudpp/app/scan_app.cu missing: not a cudpp checkout" % src)
    for sub in ("cub/cub/cub.cuh", "moderngpu/include/moderngpu.cuh"):
        if not os.path.exists(os.path.join(src, "ext", sub)):
            sys.exit("compdb.py: %s/ext/%s missing: put the submodules in (the header)" % (src, sub))

    def arch80(extra):
        # its -gencode compute_30 (cudpp) and compute_20 (cudpp_hash) made compute_80 (the header)
        return [re.sub(r"(compute|sm)_[0-9]+", r"\1_80", a) if a.startswith("-gencode") else a
                for a in extra]
    db = []
    for target in (os.path.join("src", "cudpp", "CMakeFiles", "cudpp.dir"),
                   os.path.join("src", "cudpp_hash", "CMakeFiles", "cudpp_hash.dir")):
        db += [e for e in findcuda_entries(src, out, nvcc, [], target, cuda_flags=arch80)
               if os.path.realpath(e["file"]).startswith(os.path.join(src, "src") + "/")]
    return sorted(db, key=lambda e: e["file"])


def zfp(src, out, nvcc):
    if not os.path.exists(os.path.join(src, "src", "cuda_zfp", "cuZFP.cu")):
        sys.exit("compdb.py: %s/src/cuda_zfp/cuZFP.cu missing: not a zfp checkout" % src)
    # its CMAKE_CUDA_FLAGS pass-through gives the arch; tests off (the header)
    return findcuda_entries(src, out, nvcc, ["-DZFP_WITH_CUDA=ON", "-DCMAKE_CUDA_FLAGS=-arch=sm_80",
                                             "-DBUILD_TESTING=OFF"],
                            os.path.join("src", "CMakeFiles", "zfp.dir"))
def libsgm(src, out, nvcc):
    if not os.path.exists(os.path.join(src, "src", "cost_aggregation.cu")):
        sys.exit("compdb.py: %s/src/cost_aggregation.cu missing: not a libSGM checkout" % src)
    entries = cmake_entries(src, out, nvcc, [])
    return [{"directory": e["directory"], "file": e["file"], "arguments": arguments_of(e)}
            for e in source_cu(entries, os.path.join(src, "src"))]


def relion(src, out, nvcc):
    if not os.path.exists(os.path.join(src, "src", "acc", "cuda", "cuda_ml_optimiser.cu")):
        sys.exit("compdb.py: %s/src/acc/cuda/cuda_ml_optimiser.cu missing: not a RELION checkout"
                 % src)
    cache = os.path.join(out, "cmake", "CMakeCache.txt")

    def release(extra):
        # FindCUDA's script appends CUDA_NVCC_FLAGS_<CONFIG> to CUDA_NVCC_FLAGS (the header);
        # the cache holds the value the per-file scripts are written with
        with open(cache) as f:
            m = re.search(r"^CUDA_NVCC_FLAGS_RELEASE:\w+=(.*)$", f.read(), re.M)
        return extra + (m.group(1).replace(";", " ").split() if m else [])
    return findcuda_entries(src, out, nvcc, ["-DCUDA=ON", "-DCUDA_ARCH=80", "-DGUI=OFF",
                                             "-DFETCH_WEIGHTS=OFF"],
                            os.path.join("src", "apps", "CMakeFiles"), cuda_flags=release)


def jetson_utils(src, out, nvcc):
    if not os.path.exists(os.path.join(src, "cuda", "cudaYUV-NV12.cu")):
        sys.exit("compdb.py: %s/cuda/cudaYUV-NV12.cu missing: not a jetson-utils checkout" % src)
    # its Python bindings off as a missing Python does (the header)
    no_python = os.path.join(out, "no-python.cmake")
    with open(no_python, "w") as f:
        f.write("set(PYTHONLIBS_FOUND FALSE)\n")
    return findcuda_entries(src, out, nvcc, ["-DCUDA_NVCC_FLAGS=-arch=sm_80",
                                             "-DCUDA_nppicc_LIBRARY=/nonexistent/libnppicc.so",
                                             "-DCMAKE_DISABLE_FIND_PACKAGE_PythonLibs=TRUE",
                                             "-DCMAKE_PROJECT_INCLUDE=" + no_python],
                            os.path.join("CMakeFiles", "jetson-utils.dir"))


def kangaroo(src, out, nvcc):
    return gpu_engine_lines(src, nvcc, "Kangaroo", "ccap=80")


def gpu_engine_lines(src, nvcc, name, ccap):
    """Kangaroo's and VanitySearch's Makefiles (one author): the nvcc line of
    GPU/GPUEngine.cu, `make -n -B gpu=1 <ccap> CUDA=<toolkit> CXXCUDA=g++`."""
    if not os.path.exists(os.path.join(src, "GPU", "GPUEngine.cu")):
        sys.exit("compdb.py: %s/GPU/GPUEngine.cu missing: not a %s checkout" % (src, name))
    toolkit = os.path.dirname(os.path.dirname(nvcc))
    return make_nvcc_lines(src, ["gpu=1", ccap, "CUDA=" + toolkit, "CXXCUDA=g++",
                                 "obj/GPU/GPUEngine.o"], nvcc)
def tnn(src, out, nvcc):
    cuda = os.path.join(src, "source", "tnn", "device", "cuda")
    if not os.path.exists(os.path.join(cuda, "acc", "cuda_softmax_layer_acc.cu")):
        sys.exit("compdb.py: %s/acc/cuda_softmax_layer_acc.cu missing: not a TNN checkout" % cuda)
    env = dict(os.environ, CUDNN_ROOT_DIR=os.path.dirname(os.path.dirname(nvcc)))
    entries = cmake_entries(src, out, nvcc, ["-DTNN_CUDA_ENABLE=ON", "-DTNN_TENSORRT_ENABLE=OFF"],
                            env=env)
    db = []
    for e in source_cu(entries, cuda, leave_out=("thirdparty/",)):
        args, res, i = arguments_of(e), [], 0
        while i < len(args):
            # its TARGET_ARCH pairs (compute_75 to 53) dropped; CMake's arch 80 stays; its
            # -std=c++11 made -std=c++17, which CUDA 13's CCCL requires (the header)
            if args[i] == "-gencode" and i + 1 < len(args):
                i += 2
                continue
            res.append("-std=c++17" if args[i] == "-std=c++11" else args[i])
            i += 1
        db.append({"directory": e["directory"], "file": e["file"], "arguments": res})
    return db


def slate(src, out, nvcc):
    if not os.path.exists(os.path.join(src, "src", "cuda", "device_genorm.cu")):
        sys.exit("compdb.py: %s/src/cuda/device_genorm.cu missing: not a SLATE checkout" % src)
    for sub in ("blaspp", "lapackpp"):
        if not os.path.exists(os.path.join(src, sub, "CMakeLists.txt")):
            sys.exit("compdb.py: %s/%s missing: put the submodule in (the header)" % (src, sub))
    entries = cmake_entries(src, out, nvcc, ["-Dgpu_backend=cuda", "-Dbuild_tests=OFF"])
    return [{"directory": e["directory"], "file": e["file"], "arguments": arguments_of(e)}
            for e in source_cu(entries, os.path.join(src, "src", "cuda"))]


def cufinufft(src, out, nvcc):
    if not os.path.exists(os.path.join(src, "src", "2d", "spread2d_wrapper_paul.cu")):
        sys.exit("compdb.py: %s/src/2d/spread2d_wrapper_paul.cu missing: not a cufinufft "
                 "checkout" % src)
    # make_nvcc_lines reads the file after -c, but its rule writes `--device-c -c -std=...
    # X.cu -o X.o`: the .cu argument is the file here
    dry = subprocess.run(["make", "-n", "-B", "NVARCH=-arch=sm_80", "NVCC=" + nvcc, "lib"],
                         cwd=src, capture_output=True, text=True, check=True).stdout
    top = os.path.join(src, "src") + "/"
    db = {}
    for line in dry.splitlines():
        args = shlex.split(line)
        if not args or args[0] != nvcc or "-c" not in args:
            continue
        cu = [a for a in args if a.endswith(".cu")]
        f = os.path.normpath(os.path.join(src, cu[0])) if len(cu) == 1 else ""
        if f.startswith(top):
            # its -std=c++14, nvcc's and the host compiler's, made c++17 (the header)
            args = [a.replace("-std=c++14", "-std=c++17") for a in args]
            db.setdefault(f, {"directory": src, "file": f, "arguments": args})
    return [db[f] for f in sorted(db)]


def slabhash(src, out, nvcc):
    if not os.path.exists(os.path.join(src, "src", "slab_hash.cuh")):
        sys.exit("compdb.py: %s/src/slab_hash.cuh missing: not a SlabHash checkout" % src)
    for sub in ("SlabAlloc/src/slab_alloc.cuh", "ThirdParty/googletest/googletest/CMakeLists.txt",
                "ThirdParty/rapidjson/include/rapidjson/document.h"):
        if not os.path.exists(os.path.join(src, sub)):
            sys.exit("compdb.py: %s/%s missing: put the submodules in (the header)" % (src, sub))

    def arch80(extra):
        # its -gencode compute_35 made compute_80 (the header)
        return [re.sub(r"(compute|sm)_[0-9]+", r"\1_80", a) if a.startswith("-gencode") else a
                for a in extra]
    return findcuda_entries(src, out, nvcc, [], ".", cuda_flags=arch80)


def sgemm_cuda(src, out, nvcc):
    if not os.path.exists(os.path.join(src, "src", "kernels", "10_kernel_warptiling.cuh")):
        sys.exit("compdb.py: %s/src/kernels/10_kernel_warptiling.cuh missing: not an SGEMM_CUDA "
                 "checkout" % src)
    entries = cmake_entries(src, out, nvcc, [])
    return [{"directory": e["directory"], "file": e["file"], "arguments": arguments_of(e)}
            for e in source_cu(entries, src)]
def astra(src, out, nvcc):
    build = os.path.join(src, "build", "linux")
    if not os.path.exists(os.path.join(src, "cuda", "2d", "par_fp.cu")):
        sys.exit("compdb.py: %s/cuda/2d/par_fp.cu missing: not an ASTRA checkout" % src)
    if not os.path.exists(os.path.join(build, "Makefile")):
        sys.exit("compdb.py: %s/Makefile missing: run the configure steps in this script's "
                 "header" % build)
    with open(os.path.join(build, "Makefile")) as f:
        m = re.search(r"^CUDA_OBJECTS=((?:.*\\\n)*.*)$", f.read(), re.M)
    objects = m.group(1).replace("\\", " ").split() if m else []
    if not objects:
        sys.exit("compdb.py: no CUDA_OBJECTS in %s/Makefile (configured without CUDA?)" % build)
    # -o: make must not rerun autogen.sh (the header)
    keep = ["-o", "Makefile", "-o", "configure", "-o", "config.status", "-o", "aclocal.m4"]
    return make_nvcc_cu_lines(build, keep + objects, nvcc)


def make_nvcc_cu_lines(cwd, make_args, nvcc):
    """As make_nvcc_lines, for Makefiles that put the .cu file anywhere on the nvcc -c line
    (not right after -c) and print other shell lines that shlex cannot split: only lines
    whose first word is NVCC are split; the file is the line's one argument ending in .cu."""
    dry = subprocess.run(["make", "-n", "-B"] + make_args, cwd=cwd, capture_output=True,
                         text=True, check=True).stdout
    db = {}
    for line in dry.splitlines():
        if not line.split() or line.split()[0] != nvcc:
            continue
        args = shlex.split(line)
        cu = [a for a in args[1:] if a.endswith(".cu")]
        if "-c" not in args or len(cu) != 1:
            continue
        f = os.path.normpath(os.path.join(cwd, cu[0]))
        db.setdefault(f, {"directory": cwd, "file": f, "arguments": args})
    return [db[f] for f in sorted(db)]


def cutt(src, out, nvcc):
    if not os.path.exists(os.path.join(src, "src", "cuttkernel.cu")):
        sys.exit("compdb.py: %s/src/cuttkernel.cu missing: not a cuTT checkout" % src)
    # arch 80 in its GENCODE_FLAGS (the header)
    return make_nvcc_cu_lines(src, ["CUDAC=" + nvcc,
                                    "GENCODE_FLAGS=-gencode arch=compute_80,code=sm_80"], nvcc)


def gpufit(src, out, nvcc):
    if not os.path.exists(os.path.join(src, "Gpufit", "lm_fit_cuda.cu")):
        sys.exit("compdb.py: %s/Gpufit/lm_fit_cuda.cu missing: not a Gpufit checkout" % src)
    # arch 80 through its CUDA_ARCHITECTURES (the header)
    return findcuda_entries(src, out, nvcc, ["-DCUDA_ARCHITECTURES=8.0"],
                            os.path.join("Gpufit", "CMakeFiles", "Gpufit.dir"))


def infinitam(src, out, nvcc):
    if not os.path.exists(os.path.join(src, "ITMLib", "CUDAInstantiations.cu")):
        sys.exit("compdb.py: %s/ITMLib/CUDAInstantiations.cu missing: CHECKOUT is InfiniTAM's "
                 "InfiniTAM/ folder (the header)" % src)
    def cxx17(flags):
        # FindCUDA's --std c++11 (from CMAKE_CXX_STANDARD) made c++17 (the header)
        return ["c++17" if a == "c++11" else a for a in flags]
    # arch 80 through its CUDA_COMPUTE_CAPABILITY (the header)
    return findcuda_entries(src, out, nvcc, ["-DCUDA_COMPUTE_CAPABILITY=80"],
                            os.path.join("ITMLib", "CMakeFiles", "ITMLib.dir"), nvcc_flags=cxx17)


def viennacl(src, out, nvcc):
    if not os.path.exists(os.path.join(src, "viennacl", "linalg", "cuda", "vector_operations.hpp")):
        sys.exit("compdb.py: %s/viennacl/linalg/cuda missing: not a ViennaCL checkout" % src)
    # arch 80 through its CUDA_ARCH_FLAG; OpenCL off, tests on, examples off (the header)
    return findcuda_entries(src, out, nvcc, ["-DENABLE_CUDA=ON", "-DENABLE_OPENCL=OFF",
                                             "-DCUDA_ARCH_FLAG=-arch=sm_80",
                                             "-DBUILD_EXAMPLES=OFF", "-DBUILD_TESTING=ON"], ".")


def samples_helpers(out, header):
    """OUTDIR/cuda-samples, where the recipe's header says to copy cuda-samples' helper
    headers (common/inc/HEADER); exits when HEADER is not there."""
    samples = os.path.join(out, "cuda-samples")
    if not os.path.exists(os.path.join(samples, "common", "inc", header)):
        sys.exit("compdb.py: %s/common/inc/%s missing: copy cuda-samples' (the header)"
                 % (samples, header))
    return samples


def libfreenect2(src, out, nvcc):
    if not os.path.exists(os.path.join(src, "src", "cuda_depth_packet_processor.cu")):
        sys.exit("compdb.py: %s/src/cuda_depth_packet_processor.cu missing: not a libfreenect2 "
                 "checkout" % src)
    samples = samples_helpers(out, "helper_math.h")
    pc = os.path.join(out, "pkgconfig")
    os.makedirs(pc, exist_ok=True)
    with open(os.path.join(pc, "libusb-1.0.pc"), "w") as f:
        f.write("Name: libusb-1.0\nDescription: compdb.py stand-in (the .cu files do not use "
                "libusb)\nVersion: 1.0.26\nLibs: -lusb-1.0\nCflags:\n")
    env = dict(os.environ, PKG_CONFIG_PATH=pc, NVCUDASAMPLES_ROOT=samples)
    lib = "/usr/lib/x86_64-linux-gnu/"
    # host-side options off; stand-ins for libusb and TurboJPEG (the header)
    return findcuda_entries(src, out, nvcc, [
        "-DBUILD_EXAMPLES=OFF", "-DBUILD_OPENNI2_DRIVER=OFF", "-DENABLE_OPENCL=OFF",
        "-DENABLE_OPENGL=OFF", "-DENABLE_VAAPI=OFF", "-DENABLE_TEGRAJPEG=OFF",
        "-DLibUSB_LIBRARY=" + lib + "libusb-1.0.so", "-DTurboJPEG_INCLUDE_DIRS=/usr/include",
        "-DTurboJPEG_LIBRARIES=" + lib + "libturbojpeg.so", "-DTURBOJPEG_WORKS=1"],
        os.path.join("CMakeFiles", "cuda_compile_1.dir"), env=env)


def pointpillars(src, out, nvcc):
    if not os.path.exists(os.path.join(src, "src", "pointpillar", "lidar-voxelization.cu")):
        sys.exit("compdb.py: %s/src/pointpillar missing: not a CUDA-PointPillars checkout" % src)
    # arch 80 through its CUDASM; the Release flags as FindCUDA appends them; the host
    # -std=c++14 (in -Xcompiler lists) made c++17 (the header)
    entries = findcuda_entries(src, out, nvcc, [],
                               os.path.join("CMakeFiles", "pointpillar_core.dir"),
                               env=dict(os.environ, CUDASM="80"), release_flags=True)
    for e in entries:
        e["arguments"] = [a.replace("-std=c++14", "-std=c++17") for a in e["arguments"]]
    return entries


def gasal2(src, out, nvcc):
    if not os.path.exists(os.path.join(src, "src", "gasal_align.cu")):
        sys.exit("compdb.py: %s/src/gasal_align.cu missing: not a GASAL2 checkout" % src)
    # README's variables, arch 80 (the header)
    return make_nvcc_cu_lines(src, ["NVCC=" + nvcc, "GPU_SM_ARCH=sm_80", "MAX_QUERY_LEN=160",
                                    "N_CODE=0x4E", "gasal_align.cuo"], nvcc)


DUALSPHYSICS_CUDA_OBJECTS = [
    "JCellDivGpu_ker.o", "JCellDivGpuSingle_ker.o", "JDsPips_ker.o", "JDsGauge_ker.o",
    "JReduSum_ker.o", "JSphShifting_ker.o", "JDsAccInput_ker.o", "JSphGpu_ker.o",
    "JSphGpuSimple_ker.o", "JWaveOrder2_ker.o", "JRelaxZone_ker.o"]


def dualsphysics(src, out, nvcc):
    source = os.path.join(src, "src", "source")
    if not os.path.exists(os.path.join(source, "JSphGpu_ker.cu")):
        sys.exit("compdb.py: %s/JSphGpu_ker.cu missing: not a DualSPHysics checkout" % source)
    # its OBCUDA and OBWAVERZCUDA objects, GENCODE arch 80 (the header)
    return make_nvcc_cu_lines(source, ["NCC=" + nvcc,
                                       'GENCODE=-gencode=arch=compute_80,code="sm_80,compute_80"']
                              + DUALSPHYSICS_CUDA_OBJECTS, nvcc)


def specfem3d(src, out, nvcc):
    if not os.path.exists(os.path.join(src, "src", "gpu", "kernels", "Kernel_2_acoustic_impl.cu")):
        sys.exit("compdb.py: %s/src/gpu/kernels missing: not a specfem3d checkout" % src)
    if not os.path.exists(os.path.join(src, "setup", "config.h")):
        sys.exit("compdb.py: %s/setup/config.h missing: run the configure in this script's "
                 "header" % src)
    printed = subprocess.run(["make", "-s", "print-gpu_specfem3D_OBJECTS"], cwd=src,
                             capture_output=True, text=True, check=True).stdout
    objects = [o for o in printed.split("=", 1)[-1].split()
               if o.endswith(".cuda.o") or o.endswith(".cuda-kernel.o")]
    if not objects:
        sys.exit("compdb.py: no CUDA objects in %s/Makefile (configured without "
                 "--with-cuda?)" % src)
    return [e for e in make_nvcc_lines(src, ["NVCC=" + nvcc] + objects, nvcc)
            if e["file"].endswith(".cu")]


def cudasw4(src, out, nvcc):
    if not os.path.exists(os.path.join(src, "src", "dpx_s16_kernels.cuh")):
        sys.exit("compdb.py: %s/src/dpx_s16_kernels.cuh missing: not a CUDASW4 checkout" % src)
    db = make_nvcc_lines(src, ["COMPILER=" + nvcc, "release", "gridsearch"], nvcc)
    for e in db:
        # its -arch=native made -arch=sm_80 (the header)
        e["arguments"] = ["-arch=sm_80" if a == "-arch=native" else a for a in e["arguments"]]
    return db


def gamer(src, out, nvcc):
    cwd = os.path.join(src, "src")
    if not os.path.exists(os.path.join(cwd, "GPU_API", "CUAPI_Asyn_FluidSolver.cu")):
        sys.exit("compdb.py: %s/GPU_API/CUAPI_Asyn_FluidSolver.cu missing: not a GAMER "
                 "checkout" % cwd)
    if not os.path.exists(os.path.join(cwd, "Makefile")):
        sys.exit("compdb.py: %s/Makefile missing: run configure.py as this script's header "
                 "says" % cwd)
    printed = subprocess.run(["make", "-s", "--eval", "print-objgpu: ; @echo $(OBJ_GPU)",
                              "print-objgpu"], cwd=cwd, capture_output=True, text=True,
                             check=True).stdout.split()
    if not printed:
        sys.exit("compdb.py: no OBJ_GPU in %s/Makefile (configured without --gpu=true?)" % cwd)
    dry = subprocess.run(["make", "-n", "-B", "COMPILE_VERBOSE=1", "NVCC=" + nvcc] + printed,
                         cwd=cwd, capture_output=True, text=True, check=True).stdout
    db = {}
    for line in dry.splitlines():
        if not line.split() or line.split()[0] != nvcc:
            continue
        args = shlex.split(line)
        cu = [a for a in args[1:] if a.endswith(".cu")]
        # its rule: nvcc FLAGS -o X.o -dc X.cu (-dc: compile for relocatable device code)
        if ("-dc" not in args and "-c" not in args) or len(cu) != 1:
            continue
        f = os.path.normpath(os.path.join(cwd, cu[0]))
        db.setdefault(f, {"directory": cwd, "file": f, "arguments": args})
    return [db[f] for f in sorted(db)]


def instant_ngp(src, out, nvcc):
    src = src.rstrip("/")
    require_parts(src, (("src/testbed_nerf.cu", "an instant-ngp checkout"),
                        ("dependencies/tiny-cuda-nn/src/encoding.cu", "NVlabs/tiny-cuda-nn 2e757bbe"),
                        ("dependencies/tiny-cuda-nn/dependencies/cutlass/include/cutlass/cutlass.h",
                         "NVIDIA/cutlass 1eb63551"),
                        ("dependencies/tiny-cuda-nn/dependencies/fmt/CMakeLists.txt", "fmtlib/fmt fa2eb2d2"),
                        ("dependencies/tiny-cuda-nn/dependencies/cmrc/CMakeRC.cmake",
                         "vector-of-bool/cmrc 952ffddb"),
                        ("dependencies/tinylogger/tinylogger/tinylogger.h", "Tom94/tinylogger aea07e21"),
                        ("dependencies/zstr/CMakeLists.txt", "Tom94/zstr 007f9760"),
                        ("dependencies/glfw/CMakeLists.txt", "Tom94/glfw")),
                  "the header")
    env = env_without_tcnn_arch()
    entries = cmake_entries(src, out, nvcc, ["-DTCNN_CUDA_ARCHITECTURES=80",
                                             "-DNGP_BUILD_WITH_GUI=OFF",
                                             "-DNGP_BUILD_WITH_PYTHON_BINDINGS=OFF"],
                            env=env, cuda_architectures=False)
    # the PTX header src/triangle_bvh.cu includes from the build tree (the header): the three
    # PTX files, then the rule's own bin2c command (ninja optix_ptx.h would first build
    # tiny-cuda-nn, an order-only dependency of the ngp target)
    build = os.path.join(out, "cmake")
    ptx = ["CMakeFiles/optix_program.dir/src/optix/%s.ptx" % n
           for n in ("pathescape", "raystab", "raytrace")]
    subprocess.run(["ninja", "-C", build, "-j1"] + ptx, env=env, stdout=subprocess.DEVNULL,
                   check=True)
    rule = subprocess.run(["ninja", "-C", build, "-t", "commands", "optix_ptx.h"], env=env,
                          capture_output=True, text=True, check=True).stdout.splitlines()[-1]
    subprocess.run(rule, shell=True, env=env, stdout=subprocess.DEVNULL, check=True)
    return [{"directory": e["directory"], "file": e["file"], "arguments": arguments_of(e)}
            for e in source_cu(entries, src, leave_out=("dependencies/",))]


GARDENIA_DIRS = ("bc", "bfs", "cc", "pr", "sgd", "spmv", "sssp", "vc", "symgs", "tc")


def gardenia(src, out, nvcc):
    if not os.path.exists(os.path.join(src, "src", "common.mk")):
        sys.exit("compdb.py: %s/src/common.mk missing: not a gardenia checkout" % src)
    if not os.path.exists(os.path.join(src, "cub", "cub", "cub.cuh")):
        sys.exit("compdb.py: %s/cub/cub/cub.cuh missing: put its submodule there (NVlabs/cub "
                 "c3cceac1)" % src)
    db = []
    for d in GARDENIA_DIRS:
        db += make_nvcc_lines(os.path.join(src, "src", d),
                              ["all", "NVCC=" + nvcc, "CUDA_ARCH=-gencode arch=compute_80,code=sm_80"],
                              nvcc)
    return sorted(db, key=lambda e: e["file"])


def bght(src, out, nvcc):
    if not os.path.exists(os.path.join(src, "include", "bght", "bcht.hpp")):
        sys.exit("compdb.py: %s/include/bght/bcht.hpp missing: not a BGHT checkout" % src)
    entries = cmake_entries(src, out, nvcc, ["-Dbuild_tests=OFF"])
    return [{"directory": e["directory"], "file": e["file"], "arguments": arguments_of(e)}
            for e in source_cu(entries, src)]
def quest(src, out, nvcc):
    if not os.path.exists(os.path.join(src, "quest", "src", "gpu", "gpu_kernels.cuh")):
        sys.exit("compdb.py: %s/quest/src/gpu/gpu_kernels.cuh missing: not a QuEST checkout" % src)
    entries = cmake_entries(src, out, nvcc, ["-DENABLE_CUDA=ON"])
    # the files nvcc compiles: .cpp files of LANGUAGE CUDA (the header)
    db = {}
    for e in entries:
        args = arguments_of(e)
        f = os.path.realpath(os.path.join(e["directory"], e["file"]))
        if args and args[0] == nvcc and f.startswith(src.rstrip("/") + "/"):
            db.setdefault(f, {"directory": e["directory"], "file": f, "arguments": args})
    return [db[f] for f in sorted(db)]


def deepmd(src, out, nvcc):
    gpu = os.path.join(src, "source", "lib", "src", "gpu")
    if not os.path.exists(os.path.join(gpu, "prod_env_mat.cu")):
        sys.exit("compdb.py: %s/prod_env_mat.cu missing: not a deepmd-kit checkout" % gpu)
    # from source/, the CUDA op library without an ML backend (the header)
    entries = cmake_entries(os.path.join(src, "source"), out, nvcc,
                            ["-DUSE_CUDA_TOOLKIT=ON", "-DALLOW_NO_BACKEND=ON"])
    return [{"directory": e["directory"], "file": e["file"], "arguments": arguments_of(e)}
            for e in source_cu(entries, gpu)]


def mcx(src, out, nvcc):
    cwd = os.path.join(src, "src")
    if not os.path.exists(os.path.join(cwd, "mcx_core.cu")):
        sys.exit("compdb.py: %s/mcx_core.cu missing: not an MCX checkout" % cwd)
    # the default target, arch 80 (the header)
    return make_nvcc_cu_lines(cwd, ["CUDACC=" + nvcc, "CUGENCODE=-arch=sm_80"], nvcc)


def cholla(src, out, nvcc):
    if not os.path.exists(os.path.join(src, "src", "hydro", "hydro_cuda.cu")):
        sys.exit("compdb.py: %s/src/hydro/hydro_cuda.cu missing: not a Cholla checkout" % src)
    # the CI's machine file, the default type, arch 80, Debian's MPI and HDF5 (the header)
    return make_nvcc_cu_lines(src, ["MACHINE=github", "GPUCXX=" + nvcc,
                                    "CUDA_ROOT=" + os.path.dirname(os.path.dirname(nvcc)),
                                    "CUDA_ARCH=sm_80",
                                    "MPI_ROOT=/usr/lib/x86_64-linux-gnu/openmpi",
                                    "HDF5_ROOT=/usr/lib/x86_64-linux-gnu/hdf5/serial"], nvcc)


def gpu4pyscf(src, out, nvcc):
    lib = os.path.join(src, "gpu4pyscf", "lib")
    if not os.path.exists(os.path.join(lib, "gvhf-rys", "rys_contract_jk.cu")):
        sys.exit("compdb.py: %s/gvhf-rys/rys_contract_jk.cu missing: not a gpu4pyscf checkout" % lib)
    # its arch variable, no downloads (the header)
    entries = cmake_entries(lib, out, nvcc, ["-DCUDA_ARCHITECTURES=80-real", "-DBUILD_CUTLASS=OFF",
                                             "-DBUILD_LIBXC=OFF"], cuda_architectures=False)
    return [{"directory": e["directory"], "file": e["file"], "arguments": arguments_of(e)}
            for e in source_cu(entries, lib)]


def sundials(src, out, nvcc):
    if not os.path.exists(os.path.join(src, "src", "nvector", "cuda", "nvector_cuda.cu")):
        sys.exit("compdb.py: %s/src/nvector/cuda/nvector_cuda.cu missing: not a SUNDIALS checkout" % src)
    # CUDA on, 32-bit indices for cuSPARSE/cuSOLVER (the header)
    entries = cmake_entries(src, out, nvcc, ["-DENABLE_CUDA=ON", "-DSUNDIALS_INDEX_SIZE=32"])
    return [{"directory": e["directory"], "file": e["file"], "arguments": arguments_of(e)}
            for e in source_cu(entries, src)]


def thundergbm(src, out, nvcc):
    if not os.path.exists(os.path.join(src, "include", "thundergbm", "util", "device_lambda.cuh")):
        sys.exit("compdb.py: %s/include/thundergbm/util missing: not a thundergbm checkout" % src)
    if glob.glob(os.path.join(src, "cub", "*")):
        sys.exit("compdb.py: %s/cub not empty: the header says why the toolkit's cub is used" % src)
    return xtra_computing_entries(src, out, nvcc, "thundergbm")


def vanitysearch(src, out, nvcc):
    return gpu_engine_lines(src, nvcc, "VanitySearch", "CCAP=8.0")


def gomc(src, out, nvcc):
    if not os.path.exists(os.path.join(src, "src", "GPU", "CalculateEwaldCUDAKernel.cu")):
        sys.exit("compdb.py: %s/src/GPU missing: not a GOMC checkout" % src)
    entries = cmake_entries(src, out, nvcc, [])
    # GPU_NVT's lines, its -arch=all made -arch=sm_80 (the header)
    nvt = [e for e in entries if "/GPU_NVT.dir/" in e.get("output", arguments_of(e)[-1])]
    return [{"directory": e["directory"], "file": e["file"],
             "arguments": ["-arch=sm_80" if a == "-arch=all" else a for a in arguments_of(e)]}
            for e in source_cu(nvt, src)]
def lidar_ai(src, out, nvcc):
    bev = os.path.join(src, "CUDA-BEVFusion")
    cp = os.path.join(src, "CUDA-CenterPoint")
    libs = os.path.join(src, "libraries")
    if not os.path.exists(os.path.join(bev, "src", "bevfusion", "camera-bevpool.cu")):
        sys.exit("compdb.py: %s/src/bevfusion missing: not a Lidar_AI_Solution checkout" % bev)
    toolkit = os.path.dirname(os.path.dirname(nvcc))
    # BEVFusion in tool/environment.sh's environment, arch 80 (the header)
    env = dict(os.environ, CUDASM="80", USE_Python="OFF", SPCONV_CUDA_VERSION="12.8",
               CUDA_Inc=os.path.join(toolkit, "include"), CUDA_Lib=os.path.join(toolkit, "lib64"))
    env.pop("TensorRT_Inc", None)
    db = [e for e in findcuda_entries(bev, os.path.join(out, "bevfusion"), nvcc, [], ".", env=env)
          if "custom_layernorm" not in e["file"]]
    # CenterPoint: its CUDA_TOOLKIT_ROOT_DIR pointed at the toolkit here (the header)
    cml = os.path.join(cp, "CMakeLists.txt")
    with open(cml) as f:
        text = f.read()
    text = text.replace("set(CUDA_TOOLKIT_ROOT_DIR /root/.kiwi/lib/cuda-11.8)",
                        "set(CUDA_TOOLKIT_ROOT_DIR %s)" % toolkit)
    with open(cml, "w") as f:
        f.write(text)
    db += findcuda_entries(cp, os.path.join(out, "centerpoint"), nvcc,
                           ["-DCUDA_NVCC_FLAGS=-arch=sm_80"], ".")
    # libraries/: make -n -B of each CUDA object (the header)
    db += make_nvcc_cu_lines(os.path.join(libs, "3DSparseConvolution"),
                             ["CUDA_HOME=" + toolkit, "SPCONV_CUDA_VERSION=12.8",
                              "cuda_arch=-gencode arch=compute_80,code=sm_80",
                              "objs/voxelization.uo"], nvcc)
    db += make_nvcc_cu_lines(os.path.join(libs, "YUVToRGB"),
                             ["cuda_home=" + toolkit,
                              "objs/yuvtorgb_library/yuv_to_rgb_kernel.cu.o"], nvcc)
    db += make_nvcc_cu_lines(os.path.join(libs, "roiconvert"),
                             ["CUDA_VER=13.0", "cuda_home=" + toolkit,
                              "objs/roi_conversion/roi_conversion.cu.o"], nvcc)
    for e in db:
        e["file"] = os.path.normpath(os.path.join(e["directory"], e["file"]))
    return sorted(db, key=lambda e: e["file"])



def pcl(src, out, nvcc):
    if not os.path.exists(os.path.join(src, "gpu", "octree", "src", "cuda", "knn_search.cu")):
        sys.exit("compdb.py: %s/gpu/octree/src/cuda/knn_search.cu missing: not a PCL checkout" % src)
    # its GPU subsystems, the two default-off ones too, arch 80 by its CUDA_ARCH_BIN (the header)
    entries = cmake_entries(src, out, nvcc, ["-DBUILD_GPU=ON", "-DBUILD_gpu_surface=ON",
                                             "-DBUILD_gpu_tracking=ON", "-DCUDA_ARCH_BIN=80"],
                            cuda_architectures=False)
    return [{"directory": e["directory"], "file": e["file"], "arguments": arguments_of(e)}
            for e in source_cu(entries, os.path.join(src, "gpu"))]


def cuda_convnet2(src, out, nvcc):
    if not os.path.exists(os.path.join(src, "cudaconv3", "src", "filter_acts.cu")):
        sys.exit("compdb.py: %s/cudaconv3/src/filter_acts.cu missing: not a cuda-convnet2 "
                 "checkout" % src)
    samples = samples_helpers(out, "helper_cuda.h")
    toolkit = os.path.dirname(os.path.dirname(nvcc))
    # build.sh's variables, arch 80, the samples' helpers (the header)
    args = ["CUDA_INSTALL_PATH=" + toolkit, "CUDA_SDK_PATH=" + samples,
            "GENCODE_FLAGS=-gencode arch=compute_80,code=sm_80"]
    db = []
    for d in ("nvmatrix", "cudaconv3"):
        db += make_nvcc_cu_lines(os.path.join(src, d), args, nvcc)
    return sorted(db, key=lambda e: e["file"])



def cloverleaf_cuda(src, out, nvcc):
    if not os.path.exists(os.path.join(src, "kernel_files", "advec_mom_kernel.cuknl")):
        sys.exit("compdb.py: %s/kernel_files missing: not a CloverLeaf_CUDA checkout" % src)
    toolkit = os.path.dirname(os.path.dirname(nvcc))
    # GNU, AMPERE (arch 80), its `nvcc` from PATH as --nvcc (the header)
    dry = subprocess.run(["make", "-n", "-B", "COMPILER=GNU", "NV_ARCH=AMPERE",
                          "CUDA_HOME=" + toolkit], cwd=src, capture_output=True, text=True,
                         check=True).stdout
    db = {}
    for line in dry.splitlines():
        args = shlex.split(line) if line.startswith("nvcc ") else []
        if "-c" not in args:
            continue
        f = os.path.normpath(os.path.join(src, args[args.index("-c") + 1]))
        if f.endswith(".cu"):
            db.setdefault(f, {"directory": src, "file": f, "arguments": [nvcc] + args[1:]})
    return [db[f] for f in sorted(db)]


def kblas(src, out, nvcc):
    if not os.path.exists(os.path.join(src, "src", "blas_l2", "ssymv.cu")):
        sys.exit("compdb.py: %s/src/blas_l2/ssymv.cu missing: not a kblas-gpu checkout" % src)
    entries = cmake_entries(src, out, nvcc, [])
    # each file once: its -DPREC_d line where its CMake compiles it once per precision
    db = {}
    for e in entries:
        f = os.path.realpath(os.path.join(e.get("directory", ""), e["file"]))
        args = arguments_of(e)
        if f.endswith(".cu") and (f not in db or "-DPREC_d" in args):
            db[f] = {"directory": e["directory"], "file": f, "arguments": args}
    return [db[f] for f in sorted(db)]


def nvbio(src, out, nvcc):
    if not os.path.exists(os.path.join(src, "contrib", "cub", "cub", "cub.cuh")):
        sys.exit("compdb.py: %s/contrib/cub missing: unpack its submodule (NVlabs/cub c3cceac1) "
                 "there" % src)
    entries = findcuda_entries(src, out, nvcc, ["-DGPU_ARCHITECTURE=sm_80"], ".")
    top = os.path.join(src, "contrib") + "/"
    return [e for e in entries if not os.path.realpath(e["file"]).startswith(top)]


def unidock(src, out, nvcc, catch2=None):
    project = os.path.join(src, "unidock")
    if not os.path.exists(os.path.join(project, "src", "cuda", "monte_carlo.cu")):
        sys.exit("compdb.py: %s/unidock/src/cuda/monte_carlo.cu missing: not a Uni-Dock "
                 "checkout" % src)
    catch2 = catch2 or os.path.join(out, "Catch2")
    if not os.path.exists(os.path.join(catch2, "CMakeLists.txt")):
        sys.exit("compdb.py: %s/CMakeLists.txt missing: put catchorg/Catch2 v3.4.0 (6e79e682) "
                 "there or name it with --catch2" % catch2)
    entries = cmake_entries(project, out, nvcc, ["-DFETCHCONTENT_SOURCE_DIR_CATCH2=" + catch2,
                                                 "-DFETCHCONTENT_FULLY_DISCONNECTED=ON"])
    return [{"directory": e["directory"], "file": e["file"], "arguments": arguments_of(e)}
            for e in source_cu(entries, project)]


def learn_cuda(src, out, nvcc):
    if not os.path.exists(os.path.join(src, "Chapter03", "03_cuda_thread_programming")):
        sys.exit("compdb.py: %s/Chapter03 missing: not a Learn-CUDA-Programming checkout" % src)
    samples = samples_helpers(out, "helper_timer.h")
    toolkit = os.path.dirname(os.path.dirname(nvcc))
    # its CUDA_PATH, arch 80, the samples' helpers (the header)
    args = ["CUDA_PATH=" + toolkit, "GENCODE_FLAGS=-gencode arch=compute_80,code=sm_80",
            "INCLUDES=-I" + os.path.join(samples, "common", "inc")]
    db = {}
    for mk in sorted(glob.glob(os.path.join(src, "Chapter0[1-7]", "**", "Makefile"),
                               recursive=True)):
        cwd = os.path.dirname(mk)
        with open(mk) as f:
            if "ph_build" in f.read():
                continue  # a chapter's Makefile, which only runs make in each sample folder
        dry = subprocess.run(["make", "-n", "-B"] + args, cwd=cwd, capture_output=True,
                             text=True).stdout
        for line in dry.splitlines():
            words = line.split()
            if not words or os.path.basename(words[0]) != "nvcc":
                continue
            a = [nvcc] + shlex.split(line)[1:]
            cu = [x for x in a[1:] if x.endswith(".cu")]
            if len(cu) != 1:
                continue
            if "-c" not in a:
                # a sample built in one step (nvcc X.cu -o X): its compile, -c before the file
                i = a.index(cu[0])
                a = a[:i] + ["-c"] + a[i:]
            f = os.path.normpath(os.path.join(cwd, cu[0]))
            db.setdefault(f, {"directory": cwd, "file": f, "arguments": a})
    return [db[f] for f in sorted(db)]
def cusha(src, out, nvcc):
    script = os.path.join(src, "sfBuild.sh")
    if not os.path.exists(os.path.join(src, "cusha_src", "cusha_process.cu")):
        sys.exit("compdb.py: %s/cusha_src/cusha_process.cu missing: not a CuSha checkout" % src)
    with open(script) as f:
        args = shlex.split(f.read().strip())
    # sfBuild.sh's flags, arch 80; one -c line per .cu (the header)
    flags = ["-arch=sm_80" if a.startswith("-arch=") else a for a in args[1:]
             if a.startswith("-") and a != "-o"]
    files = [a for a in args[1:] if a.endswith(".cu")]
    return [{"directory": src, "file": os.path.join(src, f),
             "arguments": [nvcc] + flags + ["-c", f]} for f in sorted(files)]


def hypre(src, out, nvcc):
    top = os.path.join(src, "src")
    if not os.path.exists(os.path.join(top, "seq_mv", "csr_matvec_device.c")):
        sys.exit("compdb.py: %s/seq_mv/csr_matvec_device.c missing: not a hypre checkout" % top)
    # the CUDA build without Umpire (the header)
    entries = cmake_entries(top, out, nvcc, ["-DHYPRE_ENABLE_CUDA=ON", "-DHYPRE_ENABLE_UMPIRE=OFF"])
    db = {}
    for e in entries:
        args = arguments_of(e)
        if os.path.basename(args[0]) == "nvcc" and "-x" in args and args[args.index("-x") + 1] == "cu":
            f = os.path.realpath(os.path.join(e["directory"], e["file"]))
            db.setdefault(f, {"directory": e["directory"], "file": f, "arguments": [nvcc] + args[1:]})
    return [db[f] for f in sorted(db)]


def qmcpack(src, out, nvcc):
    if not os.path.exists(os.path.join(src, "src", "AFQMC", "Numerics", "detail", "CUDA",
                                       "Kernels", "sum.cu")):
        sys.exit("compdb.py: %s/src/AFQMC missing: not a QMCPACK checkout" % src)
    # the CUDA build with AFQMC (the header)
    entries = cmake_entries(src, out, nvcc, ["-DQMC_GPU=cuda", "-DBUILD_AFQMC=ON", "-DQMC_MPI=ON"])
    return [{"directory": e["directory"], "file": e["file"], "arguments": arguments_of(e)}
            for e in source_cu(entries, os.path.join(src, "src"))]


def raytracing_cuda(src, out, nvcc):
    if not os.path.exists(os.path.join(src, "main.cu")) or not os.path.exists(
            os.path.join(src, "material.h")):
        sys.exit("compdb.py: %s/main.cu missing: not a raytracinginoneweekendincuda checkout" % src)
    # its cudart.o rule, arch 80 (the header)
    return make_nvcc_cu_lines(src, ["NVCC=" + nvcc + " -ccbin g++",
                                    "GENCODE_FLAGS=-gencode arch=compute_80,code=sm_80",
                                    "cudart.o"], nvcc)


def chai(src, out, nvcc):
    if not os.path.exists(os.path.join(src, "CUDA-U", "BFS", "kernel.cu")):
        sys.exit("compdb.py: %s/CUDA-U/BFS/kernel.cu missing: not a chai checkout" % src)
    toolkit = os.path.dirname(os.path.dirname(nvcc))
    db = []
    # each benchmark's one nvcc line, kernel.cu alone, arch 80 (the header)
    for d in sorted(glob.glob(os.path.join(src, "CUDA-[DU]", "*", "Makefile"))):
        cwd = os.path.dirname(d)
        dry = subprocess.run(["make", "-n", "-B", "CXX=" + nvcc, "CHAI_CUDA_LIB=" + toolkit + "/lib64",
                              "CHAI_CUDA_INC=" + toolkit + "/include"], cwd=cwd,
                             capture_output=True, text=True, check=True).stdout
        for line in dry.splitlines():
            args = shlex.split(line)
            if not args or args[0] != nvcc or "kernel.cu" not in args:
                continue
            flags, skip = [], False
            for a in args[1:]:
                if skip:
                    skip = False
                elif a == "-o":
                    skip = True
                elif a.startswith("-") and not a.startswith(("-L", "-l", "-arch")):
                    flags.append(a)
            db.append({"directory": cwd, "file": os.path.join(cwd, "kernel.cu"),
                       "arguments": [nvcc] + flags + ["-arch=sm_80", "-c", "kernel.cu"]})
            break
    return db


def quick(src, out, nvcc):
    if not os.path.exists(os.path.join(src, "src", "gpu", "cuda", "gpu_get2e.cu")):
        sys.exit("compdb.py: %s/src/gpu/cuda/gpu_get2e.cu missing: not a QUICK checkout" % src)
    # FindCUDA's per-file scripts of every CUDA target, each source once (the header)
    entries = findcuda_entries(src, out, nvcc, ["-DCOMPILER=GNU", "-DCUDA=TRUE",
                                                "-DQUICK_USER_ARCH=ampere"], "src",
                               format_flag=True)
    seen = {}
    for e in entries:
        f = os.path.realpath(e["file"])
        if f.startswith(src.rstrip("/") + "/") and f not in seen:
            seen[f] = dict(e, file=f)
    return [seen[f] for f in sorted(seen)]


def osqp(src, out, nvcc):
    top = os.path.join(src, "algebra", "cuda")
    if not os.path.exists(os.path.join(top, "src", "cuda_lin_alg.cu")):
        sys.exit("compdb.py: %s/src/cuda_lin_alg.cu missing: not an OSQP checkout" % top)
    # the CUDA algebra backend (the header)
    entries = cmake_entries(src, out, nvcc, ["-DOSQP_ALGEBRA_BACKEND=cuda"])
    # its CMakeLists sets CMAKE_CUDA_ARCHITECTURES 52 75 itself: arch 80 in their place
    db = []
    for e in source_cu(entries, top):
        args = [a for a in arguments_of(e) if not a.startswith("--generate-code=")]
        i = args.index("-x")
        db.append({"directory": e["directory"], "file": e["file"],
                   "arguments": args[:i] + ["--generate-code=arch=compute_80,code=[compute_80,sm_80]"]
                   + args[i:]})
    return db


def qsim(src, out, nvcc):
    if not os.path.exists(os.path.join(src, "lib", "simulator_cuda_kernels.h")):
        sys.exit("compdb.py: %s/lib/simulator_cuda_kernels.h missing: not a qsim checkout" % src)
    # the qsim-cuda and cuda-tests targets, arch 80 through CUDAARCHS (the header)
    dry = subprocess.run(["make", "-n", "-B", "NVCC=" + nvcc, "CUDAARCHS=80", "PYBIND11=false",
                          "qsim-cuda", "cuda-tests"], cwd=src, capture_output=True, text=True,
                         check=True).stdout
    db, cwd = {}, src
    for line in dry.splitlines():
        m = re.match(r"make\[\d+\]: Entering directory '(.*)'", line)
        if m:
            cwd = m.group(1)
            continue
        args = shlex.split(line) if line.strip() else []
        if not args or args[0] != nvcc:
            continue
        cu = [a for a in args[1:] if a.endswith(".cu")]
        if len(cu) != 1:
            continue
        flags, skip = [], False
        for a in args[1:]:
            if skip:
                skip = False
            elif a == "-o":
                skip = True
            elif a != cu[0] and not a.startswith(("-L", "-l")):
                flags.append(a)
        f = os.path.normpath(os.path.join(cwd, cu[0]))
        db.setdefault(f, {"directory": cwd, "file": f,
                          "arguments": [nvcc] + flags + ["-c", cu[0]]})
    return [db[f] for f in sorted(db)]


def gpunufft(src, out, nvcc):
    top = os.path.join(src, "CUDA")
    if not os.path.exists(os.path.join(top, "src", "gpu", "atomic", "atomic_gpuNUFFT.cu")):
        sys.exit("compdb.py: %s/src/gpu/atomic/atomic_gpuNUFFT.cu missing: not a gpuNUFFT checkout" % top)

    def arch80(flags):
        # its -gencode list (50-75) replaced by arch 80 (the header)
        kept, skip = [], False
        for a in flags:
            if skip:
                skip = False
            elif a == "-gencode":
                skip = True
            elif not a.startswith("-gencode="):
                kept.append(a)
        return kept + ["-gencode", "arch=compute_80,code=sm_80"]
    return findcuda_entries(top, out, nvcc, ["-DGEN_MEX_FILES=OFF"], "src", cuda_flags=arch80)


def superlu_dist(src, out, nvcc):
    top = os.path.join(src, "SRC")
    if not os.path.exists(os.path.join(top, "cuda", "pdgstrs_lsum_cuda.cu")):
        sys.exit("compdb.py: %s/cuda/pdgstrs_lsum_cuda.cu missing: not a SuperLU_DIST checkout" % top)
    # the CUDA build without ParMETIS (the header)
    entries = cmake_entries(src, out, nvcc, ["-DTPL_ENABLE_CUDALIB=ON",
                                             "-DTPL_ENABLE_PARMETISLIB=OFF",
                                             "-Denable_python=OFF"])
    return [{"directory": e["directory"], "file": e["file"], "arguments": arguments_of(e)}
            for e in source_cu(entries, top)]


def tealeaf_cuda(src, out, nvcc):
    if not os.path.exists(os.path.join(src, "kernel_files", "tea_leaf_cg.cuknl")):
        sys.exit("compdb.py: %s/kernel_files missing: not a TeaLeaf_CUDA checkout" % src)
    toolkit = os.path.dirname(os.path.dirname(nvcc))
    # GNU, AMPERE (arch 80), its `nvcc` from PATH as --nvcc (the header)
    dry = subprocess.run(["make", "-n", "-B", "COMPILER=GNU", "NV_ARCH=AMPERE",
                          "CUDA_HOME=" + toolkit], cwd=src, capture_output=True, text=True,
                         check=True).stdout
    db = {}
    for line in dry.splitlines():
        args = shlex.split(line) if line.startswith("nvcc ") else []
        if "-c" not in args:
            continue
        f = os.path.normpath(os.path.join(src, args[args.index("-c") + 1]))
        if f.endswith(".cu"):
            db.setdefault(f, {"directory": src, "file": f, "arguments": [nvcc] + args[1:]})
    return [db[f] for f in sorted(db)]


def peasoup(src, out, nvcc):
    if not os.path.exists(os.path.join(src, "src", "kernels.cu")) or not os.path.exists(
            os.path.join(src, "include", "transforms", "dedisperser.hpp")):
        sys.exit("compdb.py: %s/src/kernels.cu missing: not a peasoup checkout" % src)
    if not os.path.exists(os.path.join(src, "dedisp", "include", "dedisp.h")):
        sys.exit("compdb.py: %s/dedisp/include/dedisp.h missing: unpack dedisp (the header)" % src)
    toolkit = os.path.dirname(os.path.dirname(nvcc))
    # arch 80 for its version-derived list, dedisp from the checkout (the header)
    dry = subprocess.run(["make", "-n", "-B", "CUDA_DIR=" + toolkit + "/",
                          "THRUST_DIR=" + toolkit + "/", "DEDISP_DIR=" + os.path.join(src, "dedisp"),
                          "GPU_ARCH_FLAG=-gencode arch=compute_80,code=sm_80"], cwd=src,
                         capture_output=True, text=True, check=True).stdout
    db = {}
    for line in dry.splitlines():
        args = shlex.split(line) if line.strip() else []
        if not args or os.path.normpath(args[0]) != os.path.normpath(os.path.join(toolkit, "bin", "nvcc")):
            continue
        cu = [a for a in args[1:] if a.endswith(".cu")]
        if len(cu) != 1:
            continue
        flags, skip = [], False
        for a in args[1:]:
            if skip:
                skip = False
            elif a == "-o":
                skip = True
            elif (a == "-c" or a.endswith((".cu", ".cpp", ".o")) or a.startswith("-L")
                  or (a.startswith("-l") and a != "-lineinfo")):
                continue
            else:
                flags.append(a)
        f = os.path.normpath(os.path.join(src, cu[0]))
        db.setdefault(f, {"directory": src, "file": f, "arguments": [nvcc] + flags + ["-c", cu[0]]})
    return [db[f] for f in sorted(db)]


def crystal(src, out, nvcc):
    if not os.path.exists(os.path.join(src, "crystal", "crystal.cuh")):
        sys.exit("compdb.py: %s/crystal/crystal.cuh missing: not a crystal checkout" % src)
    if not os.path.exists(os.path.join(src, "cub", "cub", "util_allocator.cuh")):
        sys.exit("compdb.py: %s/cub missing: unpack cub 1.6.4 there (its make setup)" % src)
    # each query's and operator's -dc rule, arch 80 (the header)
    objs = sorted("obj/" + os.path.relpath(f, os.path.join(src, "src"))[:-3] + ".o"
                  for f in glob.glob(os.path.join(src, "src", "*", "*.cu")))
    dry = subprocess.run(["make", "-n", "-B", "NVCC=" + nvcc,
                          'SM_TARGETS=-gencode=arch=compute_80,code=\\"sm_80,compute_80\\"'] + objs,
                         cwd=src, capture_output=True, text=True, check=True).stdout
    db = {}
    for line in dry.splitlines():
        args = shlex.split(line)
        if not args or args[0] != nvcc or "-dc" not in args:
            continue
        f = os.path.normpath(os.path.join(src, args[args.index("-dc") + 1]))
        db.setdefault(f, {"directory": src, "file": f, "arguments": args})
    return [db[f] for f in sorted(db)]


def subway(src, out, nvcc):
    if not os.path.exists(os.path.join(src, "shared", "gpu_kernels.cu")):
        sys.exit("compdb.py: %s/shared/gpu_kernels.cu missing: not a Subway checkout" % src)
    # shared/ and subway/, arch 80, C++17 for CCCL (the header)
    db = []
    for d in ("shared", "subway"):
        db += make_nvcc_lines(os.path.join(src, d), ["NC=" + nvcc, "NFLAGS=-arch=sm_80"], nvcc,
                              std=("-std=c++11", "-std=c++17"))
    return db


def cgbn(src, out, nvcc):
    if not os.path.exists(os.path.join(src, "include", "cgbn", "cgbn.h")):
        sys.exit("compdb.py: %s/include/cgbn/cgbn.h missing: not a CGBN checkout" % src)
    if not os.path.exists(os.path.join(src, "gtest", "include", "gtest", "gtest.h")):
        sys.exit("compdb.py: %s/gtest missing: unpack googletest's googletest/ there" % src)
    db = {}
    # make ampere in samples/*, unit_tests, perf_tests (volta's line, arch 80) (the header)
    dirs = sorted(glob.glob(os.path.join(src, "samples", "sample_*"))) + [
        os.path.join(src, "unit_tests"), os.path.join(src, "perf_tests")]
    for cwd in dirs:
        goal = "volta" if cwd.endswith("perf_tests") else "ampere"
        dry = subprocess.run(["make", "-n", "-B", goal], cwd=cwd, capture_output=True,
                             text=True, check=True).stdout
        for line in dry.splitlines():
            words = shlex.split(line)
            if not words or words[0] != "nvcc":
                continue
            cu = [w for w in words[1:] if w.endswith(".cu")]
            if len(cu) != 1:
                continue
            a, skip = [nvcc], False
            for w in words[1:]:
                if skip:
                    skip = False
                elif w == "-o":
                    skip = True
                elif w.startswith(("-l", "-L")) or w.endswith(".a") or w == cu[0]:
                    continue
                elif w.startswith("-arch="):
                    a.append("-arch=sm_80")
                elif w == "-std=c++14":
                    a.append("-std=c++17")
                else:
                    a.append(w)
            f = os.path.normpath(os.path.join(cwd, cu[0]))
            db.setdefault(f, {"directory": cwd, "file": f, "arguments": a + ["-c", cu[0]]})
    return [db[f] for f in sorted(db)]


def ggnn(src, out, nvcc):
    if not os.path.exists(os.path.join(src, "include", "ggnn", "query", "query_kernels.cuh")):
        sys.exit("compdb.py: %s/include/ggnn missing: not a ggnn checkout" % src)
    # its arch variable, C++20's flag for CMake 3.25.1 (the header)
    entries = cmake_entries(src, out, nvcc, ["-DGGNN_CUDA_ARCHITECTURES=80",
                                             "-DCMAKE_CUDA20_STANDARD_COMPILE_OPTION=-std=c++20",
                                             "-DCMAKE_CUDA20_EXTENSION_COMPILE_OPTION=-std=c++20"],
                            cuda_architectures=False)
    return [{"directory": e["directory"], "file": e["file"], "arguments": arguments_of(e)}
            for e in source_cu(entries, os.path.join(src, "src")) +
            source_cu(entries, os.path.join(src, "examples"))]


def graphbig(src, out, nvcc):
    top = os.path.join(src, "gpu_bench")
    if not os.path.exists(os.path.join(top, "cudalib", "cudaGraph.h")):
        sys.exit("compdb.py: %s/cudalib/cudaGraph.h missing: not a graphBIG checkout" % top)
    # each benchmark's `make all`, -arch=sm_80 added (the header)
    db = []
    for mk in sorted(glob.glob(os.path.join(top, "gpu_*", "Makefile"))):
        db += make_nvcc_cu_lines(os.path.dirname(mk), ["NVCC=" + nvcc + " -arch=sm_80", "all"],
                                 nvcc)
    return db


def hkv(src, out, nvcc):
    if not os.path.exists(os.path.join(src, "include", "merlin_hashtable.cuh")):
        sys.exit("compdb.py: %s/include/merlin_hashtable.cuh missing: not a HierarchicalKV "
                 "checkout" % src)
    if not os.path.exists(os.path.join(src, "tests", "googletest", "CMakeLists.txt")):
        sys.exit("compdb.py: %s/tests/googletest missing: unpack its submodule" % src)
    # its sm variable, arch 80 (the header)
    entries = cmake_entries(src, out, nvcc, ["-Dsm=80"], cuda_architectures=False)
    return [{"directory": e["directory"], "file": e["file"], "arguments": arguments_of(e)}
            for e in source_cu(entries, src, leave_out=("tests/googletest",))]


def cvcuda(src, out, nvcc):
    if not os.path.exists(os.path.join(src, "src", "cvcuda", "priv", "legacy")):
        sys.exit("compdb.py: %s/src/cvcuda/priv/legacy missing: not a CV-CUDA checkout" % src)
    # its defaults, arch 80; the generate step's cusolver_static error (the header)
    entries = cmake_entries(src, out, nvcc, [])
    return [{"directory": e["directory"], "file": e["file"], "arguments": arguments_of(e)}
            for e in source_cu(entries, os.path.join(src, "src"))]


def phantom(src, out, nvcc):
    if not os.path.exists(os.path.join(src, "src", "ntt")):
        sys.exit("compdb.py: %s/src/ntt missing: not a phantom-fhe checkout" % src)
    # its defaults, arch 80 (the header)
    entries = cmake_entries(src, out, nvcc, [])
    return [{"directory": e["directory"], "file": e["file"], "arguments": arguments_of(e)}
            for e in source_cu(entries, os.path.join(src, "src")) +
            source_cu(entries, os.path.join(src, "examples"))]


def main():
    p = argparse.ArgumentParser(description=__doc__)
    p.add_argument("corpus", choices=["magma", "faiss", "darknet", "kaldi", "gpujpeg",
                                      "fastertransformer", "xgboost", "hecbench", "amgx",
                                      "ginkgo", "physx", "tensorrt", "gromacs", "mnn",
                                      "mumax", "gpumd", "ccminer", "autodock", "moderngpu", "tcnn",
                                      "xmrig-cuda", "thundersvm", "bitsandbytes", "hoomd",
                                      "opencv_contrib", "dlib", "caffe", "sputnik", "cusz",
                                      "popsift", "cuszp", "cudasift", "cupdlpx", "cudpp",
                                      "zfp", "libsgm", "relion", "jetson-utils",
                                      "kangaroo", "tnn", "slate", "cufinufft", "slabhash",
                                      "sgemm-cuda", "astra", "cutt", "gpufit", "infinitam",
                                      "viennacl", "libfreenect2", "pointpillars",
                                      "gasal2", "dualsphysics", "specfem3d", "cudasw4",
                                      "gamer", "instant-ngp", "gardenia", "bght", "quest", "deepmd", "mcx", "cholla",
                                      "gpu4pyscf", "sundials", "thundergbm", "vanitysearch", "gomc",
                                      "lidar-ai", "pcl", "cuda-convnet2", "cloverleaf-cuda",
                                      "kblas", "nvbio", "unidock", "learn-cuda",
                                      "cusha", "hypre", "qmcpack", "raytracing-cuda", "chai",
                                      "quick", "osqp", "qsim", "gpunufft", "superlu-dist",
                                      "tealeaf-cuda", "peasoup",
                                      "crystal", "subway", "cgbn", "ggnn", "graphbig", "hkv",
                                      "cvcuda", "phantom"])
    p.add_argument("checkout")
    p.add_argument("outdir")
    p.add_argument("--nvcc", default="/usr/local/cuda/bin/nvcc")
    p.add_argument("--opencv-headers", metavar="DIR",
                   help="opencv_contrib: the folder holding the two opencv/opencv headers "
                        "(private.cuda.hpp, cuda_compat.hpp) that the header names")
    p.add_argument("--catch2", metavar="DIR",
                   help="unidock: a catchorg/Catch2 v3.4.0 tree for its FetchContent "
                        "(default OUTDIR/Catch2)")
    a = p.parse_args()
    src = os.path.realpath(a.checkout)
    out = os.path.realpath(a.outdir)
    os.makedirs(out, exist_ok=True)
    db = {"magma": magma, "faiss": faiss, "darknet": darknet, "kaldi": kaldi,
          "gpujpeg": gpujpeg, "fastertransformer": fastertransformer,
          "xgboost": xgboost, "hecbench": hecbench, "amgx": amgx,
          "ginkgo": ginkgo, "physx": physx, "tensorrt": tensorrt,
          "gromacs": gromacs, "mnn": mnn, "mumax": mumax,
          "gpumd": gpumd, "ccminer": ccminer, "autodock": autodock,
          "moderngpu": moderngpu, "tcnn": tcnn, "xmrig-cuda": xmrig_cuda,
          "thundersvm": thundersvm, "bitsandbytes": bitsandbytes, "hoomd": hoomd,
          "opencv_contrib": lambda s, o, n: opencv_contrib(s, o, n, a.opencv_headers),
          "dlib": dlib, "caffe": caffe, "sputnik": sputnik, "cusz": cusz,
          "popsift": popsift, "cuszp": cuszp, "cudasift": cudasift,
          "cupdlpx": cupdlpx, "cudpp": cudpp, "zfp": zfp,
          "libsgm": libsgm, "relion": relion,
          "jetson-utils": jetson_utils, "kangaroo": kangaroo,
          "tnn": tnn, "slate": slate, "cufinufft": cufinufft,
          "slabhash": slabhash, "sgemm-cuda": sgemm_cuda, "astra": astra, "cutt": cutt,
          "gpufit": gpufit, "infinitam": infinitam, "viennacl": viennacl,
          "libfreenect2": libfreenect2, "pointpillars": pointpillars,
          "gasal2": gasal2, "dualsphysics": dualsphysics,
          "specfem3d": specfem3d, "cudasw4": cudasw4, "gamer": gamer,
          "instant-ngp": instant_ngp, "gardenia": gardenia, "bght": bght,
          "quest": quest, "deepmd": deepmd, "mcx": mcx, "cholla": cholla, "gpu4pyscf": gpu4pyscf,
          "sundials": sundials, "thundergbm": thundergbm, "vanitysearch": vanitysearch,
          "gomc": gomc, "lidar-ai": lidar_ai, "pcl": pcl, "cuda-convnet2": cuda_convnet2,
          "cloverleaf-cuda": cloverleaf_cuda,
          "kblas": kblas, "nvbio": nvbio, "learn-cuda": learn_cuda,
          "unidock": lambda s, o, n: unidock(s, o, n, a.catch2),
          "cusha": cusha, "hypre": hypre, "qmcpack": qmcpack,
          "raytracing-cuda": raytracing_cuda, "chai": chai,
          "quick": quick, "osqp": osqp, "qsim": qsim, "gpunufft": gpunufft,
          "superlu-dist": superlu_dist, "tealeaf-cuda": tealeaf_cuda,
          "peasoup": peasoup,
          "crystal": crystal, "subway": subway, "cgbn": cgbn, "ggnn": ggnn,
          "graphbig": graphbig, "hkv": hkv,
          "cvcuda": cvcuda, "phantom": phantom}[a.corpus](src, out, a.nvcc)
    with open(os.path.join(out, "compile_commands.json"), "w") as f:
        json.dump(db, f, indent=1)
    print("%s: %d files -> %s" % (a.corpus, len(db), os.path.join(out, "compile_commands.json")))


if __name__ == "__main__":
    main()
