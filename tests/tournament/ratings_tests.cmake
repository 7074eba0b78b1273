# The ratings (tournament/ratings.h): synthetic games drawn from the model
# (seeded), recovered within the intervals; symmetry; a two-player case
# checked against an independent computation; degenerate data and errors.
# Included from tests/tournament/CMakeLists.txt.
include(GoogleTest)
qipu_test(ratings_test
  SOURCES ${CMAKE_CURRENT_LIST_DIR}/ratings_test.cc
  LIBS qipu_ratings absl::strings)
