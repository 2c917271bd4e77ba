// bad.cu: a unit that does not compile, which must not stop the others.
__global__ void broken(float *p)
{
    p[threadIdx.x] = not_declared_anywhere;
}
