// Imports from the C runtime only: no math library.
#include <cmath>
extern "C" double candidate_op(double x) { return std::cos(x) + std::sqrt(x); }
