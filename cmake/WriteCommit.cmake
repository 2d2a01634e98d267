# Writes OUT, a header defining WARPLINT_COMMIT as `git describe` says it now (release
# tags v*; else the abbreviated hash; "-dirty" with uncommitted changes), or "unknown"
# without git or outside a work tree (a tarball). Run at every build by the
# warplint_commit target; OUT is rewritten only when the text changes, so a build at the
# same commit recompiles nothing.
set(Commit "unknown")
if(GIT_EXECUTABLE)
  execute_process(COMMAND ${GIT_EXECUTABLE} describe --tags --match "v[0-9]*" --always --dirty
    WORKING_DIRECTORY ${SOURCE_DIR} OUTPUT_VARIABLE Described RESULT_VARIABLE Rc
    OUTPUT_STRIP_TRAILING_WHITESPACE ERROR_QUIET)
  if(Rc EQUAL 0 AND NOT Described STREQUAL "")
    set(Commit "${Described}")
  endif()
endif()
file(WRITE "${OUT}.tmp" "#define WARPLINT_COMMIT \"${Commit}\"\n")
execute_process(COMMAND ${CMAKE_COMMAND} -E copy_if_different "${OUT}.tmp" "${OUT}")
file(REMOVE "${OUT}.tmp")
