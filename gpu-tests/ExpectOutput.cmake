# Runs PROGRAM with ARGS ('|'-separated) and checks its exit status against
# EXPECT_RC and its stdout+stderr against the regular expression EXPECT.
# Usage: cmake -DPROGRAM=... -DARGS=a|b -DEXPECT_RC=1 -DEXPECT=re -P ExpectOutput.cmake
string(REPLACE "|" ";" args "${ARGS}")
execute_process(COMMAND ${PROGRAM} ${args}
  RESULT_VARIABLE rc OUTPUT_VARIABLE out ERROR_VARIABLE err)
set(all "${out}${err}")
if(NOT rc STREQUAL EXPECT_RC)
  message(FATAL_ERROR "exit status ${rc}, expected ${EXPECT_RC}; output:\n${all}")
endif()
if(NOT all MATCHES "${EXPECT}")
  message(FATAL_ERROR "output does not match '${EXPECT}':\n${all}")
endif()
message(STATUS "ok: exit ${rc}, output matches '${EXPECT}'")
