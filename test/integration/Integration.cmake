#===- Integration.cmake - check-tcgen-integration ------------------------===#
#
# This file implements the check-tcgen-integration target: it compiles
# every example (examples/*.mlir), the docs' problems
# (bench/suites/integration.txt) and the flag matrix of
# bench/suites/ptx-matrix.txt with `tcgen compile --batch`, requires every
# one to compile, and where a GPU is found runs them all with `tcgen-gpu
# run --check` (bundles whose sizes are fixed at launch at DYNAMIC_SIZES).
#   cmake -DSRC=... -DOUT=... -DTCGEN=... -DTCGEN_GPU=... -DPYTHON=...
#         [-DJOBS=N] -P Integration.cmake
#
#===----------------------------------------------------------------------===#

cmake_minimum_required(VERSION 3.20) # list() keeps empty elements
# Sizes for the kernels whose sizes are fixed at launch: M odd, N and K not
# multiples of a tile (every edge of a tile), rows of A, B and C multiples of
# 16 bytes (which TMA needs of such a kernel).
set(DYNAMIC_SIZES "515,264,304")
if(NOT JOBS)
  cmake_host_system_information(RESULT JOBS QUERY NUMBER_OF_LOGICAL_CORES)
endif()
file(REMOVE_RECURSE "${OUT}")
file(MAKE_DIRECTORY "${OUT}/mlir")

# The study file: the docs' problems, then every example, then the matrix.
file(READ "${SRC}/bench/suites/integration.txt" study)
string(APPEND study "\n# examples/\n")
file(GLOB examples "${SRC}/examples/*.mlir")
list(SORT examples)
foreach(example IN LISTS examples)
  get_filename_component(name "${example}" NAME_WE)
  string(APPEND study "example_${name} ${example}\n")
endforeach()
string(APPEND study "\n# bench/suites/ptx-matrix.txt (NAME | INPUT | flags)\n")
file(STRINGS "${SRC}/bench/suites/ptx-matrix.txt" lines)
foreach(line IN LISTS lines)
  if(line MATCHES "^[ \t]*(#|$)")
    continue()
  endif()
  string(REPLACE "|" ";" fields "${line}")
  list(GET fields 0 name)
  list(GET fields 1 input)
  list(GET fields 2 flags)
  string(STRIP "${name}" name)
  string(STRIP "${input}" input)
  string(STRIP "${flags}" flags)
  if(input MATCHES "^gen (.*)$")
    # `gen M N K [options]`: the matmul written by test/utils/gen_matmul.py.
    separate_arguments(gen_args UNIX_COMMAND "${CMAKE_MATCH_1}")
    execute_process(
      COMMAND "${PYTHON}" "${SRC}/test/utils/gen_matmul.py" ${gen_args}
              --name "${name}"
      OUTPUT_FILE "${OUT}/mlir/${name}.mlir" RESULT_VARIABLE rc)
    if(NOT rc EQUAL 0)
      message(FATAL_ERROR "gen_matmul.py ${CMAKE_MATCH_1}: exit status ${rc}")
    endif()
    set(input "${OUT}/mlir/${name}.mlir")
  else()
    set(input "${SRC}/${input}")
  endif()
  string(APPEND study "matrix_${name} ${input} --target=sm_90a ${flags}\n")
endforeach()
file(WRITE "${OUT}/integration.txt" "${study}")

execute_process(
  COMMAND "${TCGEN}" compile --batch "${OUT}/integration.txt"
          -o "${OUT}/bundles" -j ${JOBS}
  RESULT_VARIABLE rc)
file(STRINGS "${OUT}/bundles/batch.tsv" rows)
set(bundles "")
set(bad "")
foreach(row IN LISTS rows)
  if(row MATCHES "^([^\t]+)\tok\t")
    list(APPEND bundles "${OUT}/bundles/${CMAKE_MATCH_1}")
  elseif(NOT row MATCHES "^name\t")
    list(APPEND bad "${row}")
  endif()
endforeach()
list(LENGTH bundles compiled)
if(bad OR NOT rc EQUAL 0)
  string(REPLACE ";" "\n  " bad "${bad}")
  message(FATAL_ERROR "check-tcgen-integration: not compiled:\n  ${bad}")
endif()
message(STATUS "check-tcgen-integration: ${compiled} bundles compiled "
               "(${OUT}/bundles)")

# On a GPU: check every bundle against the float64 reference.
execute_process(COMMAND "${TCGEN_GPU}" bench --device-name
                RESULT_VARIABLE has_gpu OUTPUT_VARIABLE device
                ERROR_QUIET OUTPUT_STRIP_TRAILING_WHITESPACE)
if(NOT has_gpu EQUAL 0)
  message(STATUS "check-tcgen-integration: no GPU found: the bundles were "
                 "compiled, not run")
  return()
endif()
message(STATUS "check-tcgen-integration: ${device}")
execute_process(
  COMMAND "${TCGEN_GPU}" run ${bundles} --check --sizes ${DYNAMIC_SIZES}
  RESULT_VARIABLE rc OUTPUT_FILE "${OUT}/run.txt" ERROR_FILE "${OUT}/run.err")
file(STRINGS "${OUT}/run.txt" summary REGEX "^RUN-SUMMARY")
message(STATUS "check-tcgen-integration: ${summary} (${OUT}/run.txt)")
if(NOT rc EQUAL 0)
  file(STRINGS "${OUT}/run.txt" failures REGEX "FAIL")
  file(READ "${OUT}/run.err" errors)
  string(REPLACE ";" "\n  " failures "${failures}")
  message(FATAL_ERROR "check-tcgen-integration: tcgen-gpu run --check "
                      "failed:\n  ${failures}\n${errors}")
endif()
