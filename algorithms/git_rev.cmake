# Writes OUT (a one-line header defining ORDO_GIT_REV) from `git describe` of SRC; run at
# every build so that --version names the revision the binary was built from, and
# rewritten only when the revision changes, so nothing recompiles needlessly.
execute_process(COMMAND git -C ${SRC} describe --always --dirty
                OUTPUT_VARIABLE rev OUTPUT_STRIP_TRAILING_WHITESPACE
                ERROR_QUIET RESULT_VARIABLE rc)
if(NOT rc EQUAL 0 OR NOT rev)
  set(rev "unknown")
endif()
set(text "#define ORDO_GIT_REV \"${rev}\"\n")
if(EXISTS ${OUT})
  file(READ ${OUT} old)
endif()
if(NOT old STREQUAL text)
  file(WRITE ${OUT} "${text}")
endif()
