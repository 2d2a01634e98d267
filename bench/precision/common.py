# Shared by sample.py and score.py: reading `warplint check --format json` runs of the
# precision corpora and naming each finding by (corpus, file, line, check).
import json
import os

# The corpora of docs/precision.md: name -> (repository, commit).
CORPORA = {
    "magma": ("icl-utk-edu/magma", "c64e52ab893601dc89d6e92d675307875325c231"),
    "faiss": ("facebookresearch/faiss", "02dbb4e42f49aa2ce57cd78977b0e47a11f7cb91"),
    "darknet": ("AlexeyAB/darknet", "59596d7880f6504768df41d6daa586f5cb2b932f"),
    "kaldi": ("kaldi-asr/kaldi", "f4007661023b98b8081fd875029f0dee62242fd1"),
    "gpujpeg": ("CESNET/GPUJPEG", "165477b9e736807d13fd6ad5ad7a3f42baae0e16"),
    "fastertransformer": ("NVIDIA/FasterTransformer", "df4a7534860137e060e18d2ebf019906120ea204"),
    "xgboost": ("dmlc/xgboost", "379b29f0836b9dbc313b993d8e5743bd452d4117"),
    "hecbench": ("zjin-lcf/HeCBench", "f27000a5188f8ac79bd43fc95a1b3f890c18823d"),
    "amgx": ("NVIDIA/AMGX", "3188dce5bdc22e96407d609e398925bed6aa010d"),
    "ginkgo": ("ginkgo-project/ginkgo", "591cd136b603d47669e53ec5264ff9ed59231682"),
    "physx": ("NVIDIA-Omniverse/PhysX", "a3d8a641de4c3014fd56704af0f50b8be7e9778b"),
    "tensorrt": ("NVIDIA/TensorRT", "a892d22267d9cd2dedc1a0893e6892ac901f6d3d"),
    "gromacs": ("gromacs/gromacs", "b1a82ec1956eb9658d33f3ec6f3adfdbb6b53a7b"),
    "mnn": ("alibaba/MNN", "4d40bdbd7efb73a58383bb5da867a6f41eb1776e"),
    "mumax": ("mumax/3", "a0c5126ac5477b02ee321bebfb2ed5e2d76368b0"),
    "gpumd": ("brucefan1983/GPUMD", "d98135deee27068f4f30605fbc581d4c613fff99"),
    "ccminer": ("tpruvot/ccminer", "6ff4e50987e59a70056324a94ed8667cc0bf598d"),
    "autodock": ("ccsb-scripps/AutoDock-GPU", "f5cf6ffdd0c5b3f113d5cc424fabee51df04da7e"),
    "moderngpu": ("moderngpu/moderngpu", "267cc8d02c03f00f1656f1205c61c946a1e530b0"),
    "tcnn": ("NVlabs/tiny-cuda-nn", "6ee3546bda615f51abe684ce9edefeb414689135"),
    "thundersvm": ("Xtra-Computing/thundersvm", "5c6a056ac7f474b085d5415c81c5d48a1419642a"),
    "xmrig-cuda": ("xmrig/xmrig-cuda", "01d534864b5d82c2ab153af4d995414e419ed069"),
    "bitsandbytes": ("bitsandbytes-foundation/bitsandbytes", "95f9af309d4d5793847169c39288dcd3fcbdf564"),
    "hoomd": ("glotzerlab/hoomd-blue", "967b6a431e1a3f1b07f52f2990fc2c711b57e141"),
    "dlib": ("davisking/dlib", "3d40bf5790ca9073c160cebb898800d9f33e12ab"),
    "caffe": ("BVLC/caffe", "9b891540183ddc834a02b2bd81b31afae71b2153"),
    "opencv_contrib": ("opencv/opencv_contrib", "2a5154a4479e841aa1282ef83d139c4870d17b8f"),
    "sputnik": ("google-research/sputnik", "bbf5840ba5efccf01f862855c785f71bcc6ff1f0"),
    "cusz": ("szcompressor/cuSZ", "d3cde38aec71a3ae2a7f80eef7707a27b3bc3d1d"),
    "popsift": ("alicevision/popsift", "4b4b2478d5f0cdb6c4215a031572e951c0c2502e"),
    "cuszp": ("szcompressor/cuSZp", "6ab90a55dfb47da95c4d23b1bea0013e3f8f73ce"),
    "cudasift": ("Celebrandil/CudaSift", "5bc874af176224770da573eb0135b3494e553690"),
    "cupdlpx": ("MIT-Lu-Lab/cuPDLPx", "4ab50eebe75dede1773f6516fba1947b2df2d29b"),
    "cudpp": ("cudpp/cudpp", "9dc7357ee818498a87bc2f68f9d887c298e0e3f6"),
    "zfp": ("LLNL/zfp", "da9a8349ab200890b169b90ecde2b8a6a6fc6de8"),
    "libsgm": ("fixstars/libSGM", "e4c669bb9e039b60f04178b080ac7d6077a4d4bd"),
    "relion": ("3dem/relion", "73f0a3c0c9dfa513ca0456ef8f66dd3eb5c35cdb"),
    "jetson-utils": ("dusty-nv/jetson-utils", "fae4b4250f985ab92180b6ec955b79995b7a34ff"),
    "kangaroo": ("JeanLucPons/Kangaroo", "37576c82d198c20fca65b14da74138ae6153a446"),
    "tnn": ("Tencent/TNN", "f0cb08129a05c5b60f08e4ef66042a54a883a56a"),
    "slate": ("icl-utk-edu/slate", "f8348a7c3de4f8fc60f5b8f78134df25ebc9061b"),
    "cufinufft": ("flatironinstitute/cufinufft", "6309b9b91e41297166ba52ad8fbdd22a15569fe7"),
    "slabhash": ("owensgroup/SlabHash", "eec7135a3e5d40ba7fb9a7e88f7bd6d49abc4dee"),
    "sgemm-cuda": ("siboehm/SGEMM_CUDA", "60cba6f9b20a198116c76f18de8047f44df8c8b8"),
    "astra": ("astra-toolbox/astra-toolbox", "bf7acada528a85c5841979cc8a6473ec075dfcb7"),
    "cutt": ("ap-hynninen/cutt", "4c251c60e38f9c8a61a9ebbb3630d8ab01ba9da1"),
    "gpufit": ("gpufit/Gpufit", "a0bd66c365468c7fca4b8f0511597907cf2c0274"),
    "infinitam": ("victorprad/InfiniTAM", "4156547e7f118c3a303d0b3c20f4da2aa3bfc9c9"),
    "viennacl": ("viennacl/viennacl-dev", "dc552a8d4bba2bb028a346dc611deea0c67e3eed"),
    "libfreenect2": ("OpenKinect/libfreenect2", "fd64c5d9b214df6f6a55b4419357e51083f15d93"),
    "pointpillars": ("NVIDIA-AI-IOT/CUDA-PointPillars", "ce7e2bd694c90207435c8751d61cdb38d48a9f4c"),
    "gasal2": ("nahmedraja/GASAL2", "106d94ee53fc847214fb05f2f9f892538a5d3baf"),
    "dualsphysics": ("DualSPHysics/DualSPHysics", "ef3721a861fda961f0e2f9ec4cd317b19de99086"),
    "specfem3d": ("geodynamics/specfem3d", "7ab2414052ea4f35752821a1e137ac94c9aa7b59"),
    "cudasw4": ("asbschmidt/CUDASW4", "37a394c372e35086e7ac7da844e262d9645565e3"),
    "gamer": ("gamer-project/gamer", "8979ef12e91bcdc28d6895b598e54906364abec3"),
    "instant-ngp": ("NVlabs/instant-ngp", "abe236ee00cf90cfca6e36e65c00435d5b21f50a"),
    "gardenia": ("chenxuhao/gardenia", "5894df11cf47f8839945edadff43dc79e260216d"),
    "bght": ("owensgroup/BGHT", "7584547fcba6e980e8c80beb1694e52310ade16c"),
    "quest": ("QuEST-Kit/QuEST", "4d44ec81debdae20cb6ae988e400bf606180a65e"),
    "deepmd": ("deepmodeling/deepmd-kit", "bc902daf747d93c5d7314338d287fd2dd0a7e32c"),
    "mcx": ("fangq/mcx", "d97fd717db78cd7e964606cf127b7e1ce2c55ed8"),
    "cholla": ("cholla-hydro/cholla", "8478c9ede8a5e2cb72d6481a50023666d489a763"),
    "gpu4pyscf": ("pyscf/gpu4pyscf", "5025fc4a1d3a9a41873ba07d6b3d550d5bca1139"),
    "sundials": ("LLNL/sundials", "c8dabcea90ca8bf195474da120e4f3dd39aa711f"),
    "thundergbm": ("Xtra-Computing/thundergbm", "e3f824e4bdeba9230f4230b121f87119f63c425c"),
    "vanitysearch": ("JeanLucPons/VanitySearch", "c8d48ce5f03f5357c0e87cbdb3e1e93cd50af88b"),
    "gomc": ("GOMC-WSU/GOMC", "785c2ceb6dc402b165906928452e4938b86eef04"),
    "lidar-ai": ("NVIDIA-AI-IOT/Lidar_AI_Solution", "787ad9549d2573a1a543fd1c03fb5835e580aafb"),
    "pcl": ("PointCloudLibrary/pcl", "1fdb03883eab28f642e938d9bf4d317903212cb4"),
    "cuda-convnet2": ("akrizhevsky/cuda-convnet2", "3238bf0367f63eb370e897b9e5714794cb67ddc2"),
    "cloverleaf-cuda": ("UK-MAC/CloverLeaf_CUDA", "03c780320cfab3a47379a1c5952ab24011647f2e"),
    "kblas": ("ecrc/kblas-gpu", "8af76dc862c74cbe880569ff2ccf6e5e54245430"),
    "nvbio": ("NVlabs/nvbio", "5916f3ea387d7d0b6a2661be87c9129ac623ac56"),
    "unidock": ("dptech-corp/Uni-Dock", "66546c37959c1a4bcedf1098f15e81097422670d"),
    "learn-cuda": ("PacktPublishing/Learn-CUDA-Programming", "10bd9b59bfcc680d608ea1417da5089f73d91b11"),
    "cusha": ("farkhor/CuSha", "e753734098645d7e1ad103d6f7f6018cb085b7bf"),
    "hypre": ("hypre-space/hypre", "0854739e5136f7b850b29eaaf609ec9df6c8307a"),
    "qmcpack": ("QMCPACK/qmcpack", "79d4f0eebccc7f67436c2c6b83ce6a9e9c87b074"),
    "raytracing-cuda": ("rogerallen/raytracinginoneweekendincuda",
                        "ab140b12d4923b75270831baabab5e4d4209f305"),
    "chai": ("chai-benchmarks/chai", "1ad38e3607a59905c5edc4f6ae11f676a769f3d9"),
    "quick": ("merzlab/QUICK", "bc80f985f7141f69a344aa4ca46f3078fe334864"),
    "osqp": ("osqp/osqp", "1572ae068e9ce9ca723cf8223548ade1ff7acc29"),
    "qsim": ("quantumlib/qsim", "502b4a3774834ca866c633777b4c7bf8fee1d25e"),
    "gpunufft": ("andyschwarzl/gpuNUFFT", "350fc322ce0e259efc8b1dfd49e7339163ca7f2f"),
    "superlu-dist": ("xiaoyeli/superlu_dist", "1fd66dad5a1dfa0c4906010883a7fed92883555e"),
    "tealeaf-cuda": ("UK-MAC/TeaLeaf_CUDA", "2ac2460fbef66513fafb3ffa58082f5512555553"),
    "peasoup": ("ewanbarr/peasoup", "41c459f93ff5cde85f1adcd45cd720fec40d9a80"),
    "crystal": ("anilshanbhag/crystal", "f2179e607eb923f2053a706c1e30aa2b6161b9db"),
    "subway": ("AutomataLab/Subway", "a0ef2d1a1a6253a044ce3a980a5eaab737c7b24a"),
    "cgbn": ("NVlabs/CGBN", "6e6fdc1ab3e7c4e7899a83dc52ee1005b7e8c217"),
    "ggnn": ("cgtuebingen/ggnn", "4f8088f10747c827b3051336da6541317e2dc9bf"),
    "graphbig": ("graphbig/graphBIG", "9ceb9d1b4f52770815bc8de6e9492b38f4ea7e9c"),
    "hkv": ("NVIDIA-Merlin/HierarchicalKV", "ae24eecde0b42a90b2c83db15eba0294b5cc2928"),
    "cvcuda": ("CVCUDA/CV-CUDA", "da51fc96c1494c5e43e136978a2acb99138824af"),
    "phantom": ("encryptorion-lab/phantom-fhe", "1f4a198443b3af77118e51f53d5b8f332154b875"),
}


def parse_run(spec):
    """CORPUS=RUN.json -> (corpus, path)."""
    if "=" not in spec:
        raise SystemExit("expected CORPUS=RUN.json, got %r" % spec)
    corpus, path = spec.split("=", 1)
    if corpus not in CORPORA:
        raise SystemExit("unknown corpus %r (known: %s)" % (corpus, ", ".join(sorted(CORPORA))))
    return corpus, path


def repo_path(corpus, path, root="/work/corpora"):
    """A finding's path made relative to the corpus checkout ROOT/CORPUS. The README's runs
    are made from ROOT (warplint writes paths relative to the current directory, so
    'magma/magmablas/x.cu'); absolute paths under ROOT/CORPUS are accepted too. A path
    outside the checkout (a toolkit header) is kept as it is."""
    path = os.path.normpath(path)
    if os.path.isabs(path):
        top = os.path.join(os.path.realpath(root), corpus)
        return os.path.relpath(path, top) if path.startswith(top + os.sep) else path
    first, _, rest = path.partition(os.sep)
    return rest if first == corpus and rest else path


def load(corpus, path, root="/work/corpora"):
    """The run's JSON and its findings as dicts with a 'key' (corpus, file, line, check)."""
    with open(path) as f:
        run = json.load(f)
    found = []
    for d in run["findings"]:
        rel = repo_path(corpus, d["file"], root)
        found.append(dict(d, corpus=corpus, rel=rel, key=(corpus, rel, int(d["line"]), d["check"])))
    return run, found
