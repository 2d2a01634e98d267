//===- CompdbExport.cpp - what `warplint compdb` writes beside the database -===//
#include "driver/compdb/CompdbExport.h"
#include "driver/run/Analysis.h"
#include "driver/compdb/Includers.h"
#include "driver/compdb/NvccTranslate.h"
#include "driver/formats/Formats.h"

#include "llvm/ADT/SmallString.h"
#include "llvm/ADT/StringRef.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/FormatVariadic.h"
#include "llvm/Support/JSON.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/VirtualFileSystem.h"
#include "llvm/Support/xxhash.h"

#include <map>

namespace warplint::driver {
namespace {

/// The value of a driver flag written `-flag=VALUE` or `-flag VALUE`; empty when absent.
std::string flagValue(const std::vector<std::string> &Args, llvm::StringRef Flag) {
  for (size_t I = 1; I < Args.size(); ++I) {
    llvm::StringRef A = Args[I];
    if (A == "--")
      break;
    if (A == Flag && I + 1 < Args.size())
      return Args[I + 1];
    if (A.consume_front(Flag) && A.consume_front("="))
      return A.str();
  }
  return {};
}

bool isCudaParse(const std::vector<std::string> &Args) {
  for (size_t I = 1; I < Args.size(); ++I) {
    llvm::StringRef A = Args[I];
    if (A == "-nocudainc")
      return false;
  }
  for (size_t I = 1; I < Args.size(); ++I) {
    llvm::StringRef A = Args[I];
    if (A == "-xcuda" || (A == "-x" && I + 1 < Args.size() && Args[I + 1] == "cuda") ||
        A.starts_with("--cuda-") || A.ends_with(".cu"))
      return true;
  }
  return false;
}

std::string hex(uint64_t V) { return llvm::formatv("{0:x-16}", V).str(); }

/// Dst gets a symbolic link to each entry of Src, except the directories that lead to one
/// of Shims (paths relative to Src), which are made and filled the same way.
bool mirror(const std::string &Src, const std::string &Dst, const std::vector<std::string> &Shims,
            std::string &Error) {
  std::error_code EC;
  for (llvm::sys::fs::directory_iterator It(Src, EC), End; !EC && It != End; It.increment(EC)) {
    std::string Name = llvm::sys::path::filename(It->path()).str();
    std::vector<std::string> Below;
    for (const std::string &S : Shims)
      if (llvm::StringRef(S).starts_with(Name + "/"))
        Below.push_back(S.substr(Name.size() + 1));
    llvm::SmallString<256> To(Dst);
    llvm::sys::path::append(To, Name);
    if (!Below.empty()) {
      if (std::error_code E = llvm::sys::fs::create_directory(To)) {
        Error = "cannot create " + std::string(To) + ": " + E.message();
        return false;
      }
      if (!mirror(It->path(), std::string(To), Below, Error))
        return false;
    } else if (std::error_code E = llvm::sys::fs::create_link(It->path(), To)) {
      Error = "cannot link " + std::string(To) + ": " + E.message();
      return false;
    }
  }
  if (EC) {
    Error = "cannot read " + Src + ": " + EC.message();
    return false;
  }
  return true;
}

} // namespace

std::optional<ShadowedWrapperHeaders> shadowedWrapperHeaders(const std::vector<std::string> &Args,
                                                             const std::string &Directory) {
  if (!isCudaParse(Args))
    return std::nullopt;
  std::string Toolkit = flagValue(Args, "--cuda-path");
  if (Toolkit.empty())
    Toolkit = defaultCudaToolkit();
  if (Toolkit.empty() || !isCudaToolkit(Toolkit))
    return std::nullopt;
  ShadowedWrapperHeaders S;
  S.ResourceDir = flagValue(Args, "-resource-dir");
  if (S.ResourceDir.empty())
    S.ResourceDir = clangResourceDir();
  llvm::SmallString<256> ToolkitInclude(Toolkit), ResourceInclude(S.ResourceDir);
  llvm::sys::path::append(ToolkitInclude, "include");
  llvm::sys::path::append(ResourceInclude, "include");
  S.Toolkit = std::string(ToolkitInclude);
  auto Real = llvm::vfs::getRealFileSystem();
  std::vector<ShimFile> Shims = wrapperIncludeShims(*Real, ResourceInclude, ToolkitInclude);
  for (ShimFile &Shim : Shims) {
    llvm::StringRef Name = Shim.Path;
    if (!Name.consume_front(ResourceInclude) || !Name.consume_front("/"))
      continue;
    llvm::SmallString<256> Own(ToolkitInclude);
    llvm::sys::path::append(Own, Name);
    std::string Found =
        resolveQuotedInclude(Name.str(), std::string(ResourceInclude), Args, Directory);
    if (S.Name.empty() && !Found.empty() && !llvm::sys::fs::equivalent(Found, Own)) {
      S.Name = Name.str();
      S.ProjectHeader = Found;
    }
    S.Shims.push_back({"include/" + Name.str(), std::move(Shim.Text)});
  }
  if (S.Name.empty())
    return std::nullopt;
  return S;
}

std::string writeShimmedResourceDir(const std::string &OutDir, const ShadowedWrapperHeaders &S,
                                    std::string &Error) {
  std::string Content = S.ResourceDir + "\n" + S.Toolkit + "\n";
  std::vector<std::string> Paths;
  for (const ShimFile &Shim : S.Shims) {
    Content += Shim.Path + "\n" + Shim.Text;
    Paths.push_back(Shim.Path);
  }
  llvm::SmallString<256> Final(OutDir);
  llvm::sys::path::append(Final, "warplint-resource-" + hex(llvm::xxh3_64bits(Content)));
  llvm::sys::fs::make_absolute(Final);
  llvm::SmallString<256> Marker(Final);
  llvm::sys::path::append(Marker, S.Shims.front().Path);
  if (llvm::sys::fs::is_regular_file(Marker))
    return std::string(Final); // written by an earlier export: the same content
  // An absolute model: a relative one is taken under the system's temporary directory.
  llvm::SmallString<256> Model(OutDir), Temp;
  llvm::sys::fs::make_absolute(Model);
  llvm::sys::path::append(Model, ".warplint-resource");
  if (std::error_code EC = llvm::sys::fs::createUniqueDirectory(Model, Temp)) {
    Error = "cannot create a directory in " + OutDir + ": " + EC.message();
    return {};
  }
  bool Ok = mirror(S.ResourceDir, std::string(Temp), Paths, Error);
  for (size_t I = 0; Ok && I < S.Shims.size(); ++I) {
    llvm::SmallString<256> P(Temp);
    llvm::sys::path::append(P, S.Shims[I].Path);
    if (std::error_code EC = llvm::sys::fs::create_directories(llvm::sys::path::parent_path(P))) {
      Error = "cannot create " + std::string(llvm::sys::path::parent_path(P)) + ": " + EC.message();
      Ok = false;
    } else {
      Ok = writeFileAtomically(std::string(P), S.Shims[I].Text, Error);
    }
  }
  if (Ok) {
    if (std::error_code EC = llvm::sys::fs::rename(Temp, Final)) {
      // Another export wrote the same directory meanwhile: its content is this one.
      if (!llvm::sys::fs::is_regular_file(Marker)) {
        Error = "cannot rename " + std::string(Temp) + " to " + std::string(Final) + ": " +
                EC.message();
        Ok = false;
      }
    } else {
      return std::string(Final);
    }
  }
  llvm::sys::fs::remove_directories(Temp);
  return Ok ? std::string(Final) : std::string();
}

namespace {
/// Writes Path unless it already holds Text (a re-export leaves unchanged files as they
/// were, time stamps included).
bool writeUnlessSame(const std::string &Path, const std::string &Text, std::string &Error) {
  if (auto Old = llvm::MemoryBuffer::getFile(Path); Old && (*Old)->getBuffer() == Text)
    return true;
  return writeFileAtomically(Path, Text, Error);
}
} // namespace

std::string writeJoinedOverlay(const std::string &OutDir, const std::vector<JoinedSource> &Files,
                               std::string &Error) {
  llvm::SmallString<256> Overlay(OutDir);
  llvm::sys::path::append(Overlay, "warplint-joined.yaml");
  llvm::sys::fs::make_absolute(Overlay);
  if (Files.empty()) {
    llvm::sys::fs::remove(Overlay);
    return {};
  }
  llvm::SmallString<256> Dir(OutDir);
  llvm::sys::path::append(Dir, "warplint-joined");
  llvm::sys::fs::make_absolute(Dir);
  if (std::error_code EC = llvm::sys::fs::create_directories(Dir)) {
    Error = "cannot create " + std::string(Dir) + ": " + EC.message();
    return {};
  }
  // One directory entry per source directory; each file's joined copy is named by a hash
  // of its path, so that two files of one name do not meet.
  std::map<std::string, llvm::json::Array> ByDir;
  for (const JoinedSource &F : Files) {
    llvm::SmallString<256> Copy(Dir);
    llvm::sys::path::append(Copy, hex(llvm::xxh3_64bits(F.File)) + "-" +
                                      llvm::sys::path::filename(F.File).str());
    if (!writeUnlessSame(std::string(Copy), F.Text, Error))
      return {};
    ByDir[llvm::sys::path::parent_path(F.File).str()].push_back(llvm::json::Object{
        {"type", "file"},
        {"name", llvm::sys::path::filename(F.File).str()},
        {"external-contents", std::string(Copy)}});
  }
  llvm::json::Array Roots;
  for (auto &[D, Contents] : ByDir)
    Roots.push_back(
        llvm::json::Object{{"type", "directory"}, {"name", D}, {"contents", std::move(Contents)}});
  // use-external-names false: diagnostics name the source file, not the joined copy.
  llvm::json::Object Yaml{{"version", 0},
                          {"case-sensitive", "true"},
                          {"use-external-names", false},
                          {"roots", std::move(Roots)}};
  std::string Text = llvm::formatv("{0:2}", llvm::json::Value(std::move(Yaml))).str() + "\n";
  if (!writeUnlessSame(std::string(Overlay), Text, Error))
    return {};
  return std::string(Overlay);
}

} // namespace warplint::driver
