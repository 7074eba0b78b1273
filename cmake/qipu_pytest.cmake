# qipu_pytest(NAME FILE [TIMEOUT s] [LABELS l...] [ENVIRONMENT v=x...]
#             [RESOURCE_LOCK r...]): one pytest file as one ctest test, run
# under /usr/bin/python3 (QIPU_PYTHON: Debian's python3-* packages belong
# to it) by tests/common/run_pytest.py, which turns pytest's outcome into
# ctest's: a failure fails; a file whose tests were all skipped -- also a
# module skipped at import, which pytest calls "no tests collected" --
# exits 77, "Skipped"; skips beside passing tests are printed; and under
# CI=true a skip whose reason is not on the list in tests/README.md
# ("Allowed skips") fails. QIPU_SOURCE_DIR, QIPU_BINARY_DIR and
# PYTHONDONTWRITEBYTECODE=1 are always in the environment.
include_guard(GLOBAL)

function(qipu_pytest name file)
  cmake_parse_arguments(P "" "TIMEOUT" "LABELS;ENVIRONMENT;RESOURCE_LOCK"
                        ${ARGN})
  set(python ${QIPU_PYTHON})
  if(NOT python)
    set(python /usr/bin/python3)
  endif()
  if(NOT P_TIMEOUT)
    set(P_TIMEOUT 300)
  endif()
  add_test(NAME ${name}
           COMMAND ${python} ${PROJECT_SOURCE_DIR}/tests/common/run_pytest.py
                   --name ${name}
                   --allowed-skips ${PROJECT_SOURCE_DIR}/tests/README.md
                   -- -q -p no:cacheprovider ${file})
  set(env
    "QIPU_SOURCE_DIR=${PROJECT_SOURCE_DIR}"
    "QIPU_BINARY_DIR=${PROJECT_BINARY_DIR}"
    "PYTHONDONTWRITEBYTECODE=1"
    ${P_ENVIRONMENT})
  set_tests_properties(${name} PROPERTIES
    TIMEOUT ${P_TIMEOUT}
    SKIP_RETURN_CODE 77
    ENVIRONMENT "${env}")
  if(P_LABELS)
    set_tests_properties(${name} PROPERTIES LABELS "${P_LABELS}")
  endif()
  if(P_RESOURCE_LOCK)
    set_tests_properties(${name} PROPERTIES RESOURCE_LOCK "${P_RESOURCE_LOCK}")
  endif()
endfunction()
