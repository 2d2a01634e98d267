# Packages of the install layout (`cmake --install`): a Debian package and a tarball.
#   cmake --build build --target package      # build/warplint_<version>_<arch>.deb, .tar.gz
# docs/install.md says what they hold; tests/package/deb-install.sh installs the .deb on a
# fresh Debian 12 root (ctest package-deb-debootstrap, opt-in).
set(CPACK_PACKAGE_NAME warplint)
set(CPACK_PACKAGE_VENDOR "warplint")
set(CPACK_PACKAGE_CONTACT "warplint maintainers <warplint@users.noreply.github.com>")
set(CPACK_PACKAGE_DESCRIPTION_SUMMARY
  "static analyzer for CUDA/HIP occupancy, launch shapes, divergence and memory access")
set(CPACK_PACKAGE_VERSION ${PROJECT_VERSION})
set(CPACK_GENERATOR "DEB;TGZ")
set(CPACK_PACKAGE_DIRECTORY ${CMAKE_BINARY_DIR}/packages)
set(CPACK_PACKAGE_FILE_NAME "warplint-${PROJECT_VERSION}-${CMAKE_SYSTEM_NAME}-${CMAKE_SYSTEM_PROCESSOR}")
set(CPACK_STRIP_FILES ON)

# Debian: the package installs under /usr (bin/warplint, lib/warplint-tidy.so,
# share/doc/warplint, share/warplint, lib/cmake/warplint, include/warplint).
set(CPACK_DEBIAN_FILE_NAME DEB-DEFAULT)            # warplint_<version>_<arch>.deb
set(CPACK_DEBIAN_PACKAGE_SECTION devel)
set(CPACK_DEBIAN_PACKAGE_PRIORITY optional)
# What running needs, not what building needs: the shared libraries the binary links
# (libLLVM and libclang-cpp of the LLVM it was built against, fmt by its soname) and
# clang's resource headers (lib/clang/<major>/include, the CUDA wrappers every parse
# includes), which Debian ships in libclang-common-<major>-dev. Not llvm-<major>-dev or
# libclang-<major>-dev: the binary's RUNPATH (/usr/lib/llvm-<major>/lib) finds only the
# -dev packages' symlinks there, and the loader falls back to the runtime packages'
# /usr/lib/<triplet>/libLLVM.so.<major>.<minor> by soname. dpkg-shlibdeps is not used
# because it follows that RUNPATH to llvm-<major>-dev. libc6/libstdc++6: the newest
# symbol versions the binary uses (GLIBC_2.34, GLIBCXX_3.4.30 = GCC 12), measured with
# objdump -T on Debian 12.
set(WARPLINT_LLVM_DEB_VERSION "1:${LLVM_VERSION_MAJOR}.${LLVM_VERSION_MINOR}")
string(JOIN ", " CPACK_DEBIAN_PACKAGE_DEPENDS
  "libllvm${LLVM_VERSION_MAJOR} (>= ${WARPLINT_LLVM_DEB_VERSION})"
  "libclang-cpp${LLVM_VERSION_MAJOR} (>= ${WARPLINT_LLVM_DEB_VERSION})"
  "libclang-common-${LLVM_VERSION_MAJOR}-dev (>= ${WARPLINT_LLVM_DEB_VERSION})"
  "libfmt${fmt_VERSION_MAJOR}"
  "libc6 (>= 2.34)" "libstdc++6 (>= 12)" "libgcc-s1")
# The plugin (lib/warplint-tidy.so) runs inside clang-tidy of the same LLVM major; nvcc
# gives register counts; neither is needed to run `warplint`.
set(CPACK_DEBIAN_PACKAGE_SUGGESTS "clang-tidy-${LLVM_VERSION_MAJOR}")
set(CPACK_DEBIAN_PACKAGE_DESCRIPTION
  "warplint finds occupancy limits, invalid or wasteful launch shapes, divergent branches
and uncoalesced memory access in CUDA and HIP code, with clang's front end. It runs as a
command line tool (warplint check, occupancy, report), a language server (warplint lsp),
a compiler launcher (warplint launch) and a clang-tidy plugin.")

# The tarball: the same tree under warplint-<version>-Linux-<arch>/, to unpack anywhere
# (the binary finds its share/ beside bin/); it needs the same libraries installed.
set(CPACK_ARCHIVE_COMPONENT_INSTALL OFF)
include(CPack)
