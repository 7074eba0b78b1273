# qipu_ratings: BayesElo ratings (tournament/ratings.h) -- the Bradley-Terry
# model with a first-move advantage and draws, MAP ratings, 95% intervals and
# the likelihood of superiority. Abseil only. Included from
# tournament/CMakeLists.txt.
add_library(qipu_ratings STATIC ${CMAKE_CURRENT_LIST_DIR}/ratings.cc
  ${CMAKE_CURRENT_LIST_DIR}/ratings_fit.cc)
qipu_target_defaults(qipu_ratings)
target_link_libraries(qipu_ratings PUBLIC
  absl::status absl::statusor absl::strings absl::span)
