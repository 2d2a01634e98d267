//===- IncludesTest.cpp - #include scanning: wrapper shims, kernel files' includers ===//
#include "driver/compdb/Includers.h"
#include "driver/compdb/WrapperShims.h"

#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/VirtualFileSystem.h"

#include <gtest/gtest.h>

using namespace warplint::driver;

namespace {

TEST(SpelledIncludes, QuotedAngledAndNotIncludes) {
  std::vector<SpelledInclude> In = spelledIncludes("#include \"cuda.h\"\n"
                                                   "  #  include <crt/host_runtime.h>\n"
                                                   "#include_next <cmath>\n"
                                                   "#define X 1\n"
                                                   "#include MACRO_NAME\n"
                                                   "#include \"\"\n"
                                                   "#include \"kernel.cu\" // the kernels");
  ASSERT_EQ(In.size(), 3u);
  EXPECT_EQ(In[0].Name, "cuda.h");
  EXPECT_TRUE(In[0].Quoted);
  EXPECT_EQ(In[1].Name, "crt/host_runtime.h");
  EXPECT_FALSE(In[1].Quoted);
  EXPECT_EQ(In[2].Name, "kernel.cu");
}

// The wrappers' quoted includes that the toolkit has and the resource directory does
// not get a one-line header there; angled includes, the resource directory's own
// headers and names the toolkit lacks get none.
TEST(WrapperShims, OnlyQuotedToolkitHeadersTheResourceDirectoryLacks) {
  llvm::vfs::InMemoryFileSystem FS;
  auto Add = [&](const char *Path, const char *Text) {
    FS.addFile(Path, 0, llvm::MemoryBuffer::getMemBufferCopy(Text));
  };
  Add("/res/include/__clang_cuda_runtime_wrapper.h",
      "#include \"cuda.h\"\n#include <cmath>\n#include \"__clang_cuda_builtin_vars.h\"\n"
      "#include \"crt/host_runtime.h\"\n#include \"not_in_toolkit.h\"\n");
  Add("/res/include/__clang_cuda_builtin_vars.h", "");
  Add("/res/include/other.h", "#include \"driver_types.h\"\n");
  Add("/cuda/include/cuda.h", "");
  Add("/cuda/include/cmath", "");
  Add("/cuda/include/crt/host_runtime.h", "");
  Add("/cuda/include/driver_types.h", "");
  Add("/cuda/include/__clang_cuda_builtin_vars.h", "");
  std::vector<ShimFile> Shims = wrapperIncludeShims(FS, "/res/include", "/cuda/include");
  ASSERT_EQ(Shims.size(), 2u);
  EXPECT_EQ(Shims[0].Path, "/res/include/cuda.h");
  EXPECT_NE(Shims[0].Text.find("#include \"/cuda/include/cuda.h\"\n"), std::string::npos);
  EXPECT_EQ(Shims[1].Path, "/res/include/crt/host_runtime.h");
  EXPECT_NE(Shims[1].Text.find("#include \"/cuda/include/crt/host_runtime.h\"\n"),
            std::string::npos);
}

} // namespace
