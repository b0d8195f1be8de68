// Links the stand-in libcublas.so.13 and calls cublasSgemm_v2 from it: a DT_NEEDED entry and an undefined
// symbol.
extern "C" int cublasSgemm_v2();
extern "C" int candidate_gemm() { return cublasSgemm_v2(); }
