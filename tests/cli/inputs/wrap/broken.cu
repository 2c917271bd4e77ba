// broken.cu: a unit that does not compile: wrap returns nvcc's status
// and writes no report.
__global__ void broken(int *x) { x[0] = ; }
