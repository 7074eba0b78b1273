# Generates ${CMAKE_BINARY_DIR}/generated/qipu_version.cc at every build so
# that `qipu --version` names the commit that was actually built.
set(QIPU_VERSION_CC ${CMAKE_BINARY_DIR}/generated/qipu_version.cc)
add_custom_target(qipu_version_gen
  COMMAND ${CMAKE_COMMAND}
          -DSRC=${PROJECT_SOURCE_DIR} -DOUT=${QIPU_VERSION_CC}
          -DVERSION=${PROJECT_VERSION}
          -P ${PROJECT_SOURCE_DIR}/cmake/write_version.cmake
  BYPRODUCTS ${QIPU_VERSION_CC}
  COMMENT "Stamping qipu version")
add_library(qipu_version STATIC ${QIPU_VERSION_CC})
add_dependencies(qipu_version qipu_version_gen)
target_include_directories(qipu_version PUBLIC ${PROJECT_SOURCE_DIR})
