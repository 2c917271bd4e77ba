// corpus: long template names.  Kernels in nested namespaces with several
// template arguments (types, integers, a bool, a functor template): their
// mangled symbols are long and nested, their demangled names longer.
namespace corpus {
namespace epilogue {
template <typename T> struct ScaleBias {
    T alpha, beta;
    __device__ T operator()(T v, int) const { return alpha * v + beta; }
};
struct Relu {
    template <typename T> __device__ T operator()(T v, int) const { return v > T(0) ? v : T(0); }
};
template <typename First, typename Second> struct Chain {
    First first;
    Second second;
    template <typename T> __device__ T operator()(T v, int i) const { return second(first(v, i), i); }
};
} // namespace epilogue

namespace linalg {
namespace detail {
// y[b] = epilogue(A[b] x[b]) for a batch of small Rows x Cols matrices,
// one matrix per warp.
template <typename T, int Rows, int Cols, bool Transposed, typename Epilogue>
__global__ void batched_small_matvec(const T *__restrict__ a, const T *__restrict__ x,
                                     T *__restrict__ y, int batch, Epilogue epilogue)
{
    int b = (blockIdx.x * blockDim.x + threadIdx.x) / 32, lane = threadIdx.x % 32;
    if (b >= batch || lane >= Rows)
        return;
    const T *m = a + (long)b * Rows * Cols;
    T sum = T(0);
#pragma unroll
    for (int c = 0; c < Cols; c++)
        sum += (Transposed ? m[c * Rows + lane] : m[lane * Cols + c]) * x[(long)b * Cols + c];
    y[(long)b * Rows + lane] = epilogue(sum, lane);
}
} // namespace detail
} // namespace linalg
} // namespace corpus

using namespace corpus;
template __global__ void linalg::detail::batched_small_matvec<float, 4, 8, false, epilogue::ScaleBias<float>>(
    const float *, const float *, float *, int, epilogue::ScaleBias<float>);
template __global__ void linalg::detail::batched_small_matvec<double, 3, 3, true, epilogue::Relu>(
    const double *, const double *, double *, int, epilogue::Relu);
template __global__ void linalg::detail::batched_small_matvec<
    float, 16, 16, true, epilogue::Chain<epilogue::ScaleBias<float>, epilogue::Relu>>(
    const float *, const float *, float *, int, epilogue::Chain<epilogue::ScaleBias<float>, epilogue::Relu>);
