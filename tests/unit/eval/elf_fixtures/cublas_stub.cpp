// A stand-in libcublas.so.13 (built by tests/CMakeLists.txt): only its name and one symbol matter to the
// import check.
extern "C" int cublasSgemm_v2() { return 0; }
