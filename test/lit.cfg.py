import os
import lit.formats
from lit.llvm import llvm_config

config.name = "TCGEN"
config.test_format = lit.formats.ShTest(not llvm_config.use_lit_shell)
config.suffixes = [".mlir", ".test"]
config.test_source_root = os.path.dirname(__file__)
config.test_exec_root = os.path.join(config.tcgen_obj_root, "test")
config.excludes = ["Inputs", "utils", "CMakeLists.txt", "lit.cfg.py", "lit.site.cfg.py"]

# The sanitizers' options reach the tools of a sanitized build
# (scripts/sanitize.sh).
llvm_config.with_system_environment(["HOME", "TMP", "TEMP", "ASAN_OPTIONS",
                                     "UBSAN_OPTIONS", "LSAN_OPTIONS",
                                     "ASAN_SYMBOLIZER_PATH"])
llvm_config.use_default_substitutions()
config.tcgen_tools_dir = os.path.join(config.tcgen_obj_root, "bin")
config.substitutions.append(("%tcgen_src", config.tcgen_src_root))
llvm_config.with_environment("PATH", config.llvm_tools_dir, append_path=True)
llvm_config.add_tool_substitutions(["tcgen-opt", "tcgen"], [config.tcgen_tools_dir])

# ptxas: NVVM serialization and `tcgen compile` find it through CUDA_ROOT;
# lit scrubs the environment, so pass it explicitly.
if config.tcgen_cuda_root and os.path.exists(
        os.path.join(config.tcgen_cuda_root, "bin", "ptxas")):
    config.environment["CUDA_ROOT"] = config.tcgen_cuda_root
    config.available_features.add("ptxas")

# clang-22 with the CUDA toolkit: the tcgen reschedule tests that compile
# CUDA source (the others read checked-in LLVM IR).
import shutil
if shutil.which("clang-22") and config.tcgen_cuda_root and os.path.isdir(
        os.path.join(config.tcgen_cuda_root, "include")):
    config.available_features.add("clang")
