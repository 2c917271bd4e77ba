// corpus: a kernel named the way a GEMM library names its kernels.  The
// kernel template takes one class, the whole operator, whose type nests
// tile shapes, operand descriptions, a pipeline and an epilogue several
// levels deep (written for this project; the shape of the name, not any
// library's code): the mangled symbol is over 1,024 bytes, where
// libiberty's default recursion limit stops demangling it.  Two instances
// of one kernel template differ only deep inside their argument, so their
// shortened titles must still differ.
namespace deep {
namespace layout {
struct RowMajor {};
struct ColumnMajor {};
template <int Interleave> struct ColumnMajorInterleaved {};
} // namespace layout
namespace arch {
struct Sm80 {};
template <int Bits> struct GlobalMemoryCacheHint {};
} // namespace arch
namespace gemm {
template <int M, int N, int K> struct GemmCoordinateShape {};
template <typename Element, typename Layout, int Alignment, typename Hint> struct TensorOperandDescription {};
template <typename Tile, typename Warp, typename Instruction> struct ThreadblockWarpInstructionTiling {};
template <int Stages, bool Predicated, typename Clear> struct MultistagePipelineConfiguration {};
struct SharedMemoryClearNone {};
template <typename Output, int Count, typename Accum, typename Compute, int Round> struct LinearCombinationClamp {};
template <typename Tile, typename Op, int Partitions, typename Out> struct ThreadblockEpilogueWithBroadcast {};
template <int Log> struct GemmIdentityThreadblockSwizzle {};
template <int Contiguous, int Strided> struct PitchLinearShape {};
template <typename Shape, int Threads, typename Arrangement, int Access> struct WarpRakedThreadMap {};
template <typename Shape, typename Element, typename Layout, int AdvanceRank, typename ThreadMap,
          int AccessSize>
struct PredicatedTileAccessIterator {};
template <typename Shape, typename Element, typename Layout, int Crosswise>
struct RegularTileAccessIterator {};
template <int Column, int Row, int Group, int Cluster, int Tile> struct OutputTileShape {};
template <typename Shape, typename Count, int Threads, int Access, int Bits>
struct OutputTileOptimalThreadMap {};
template <typename ThreadMap, typename Element, bool ScatterD, bool PermuteD>
struct PredicatedOutputTileIterator {};
template <typename Tiles, typename GlobalA, typename SharedA, typename GlobalB, typename SharedB,
          typename Accum, typename Pipe>
struct MultistageMma {};
template <typename A, typename B, typename C, typename Accum, typename Tiles, typename Pipe,
          typename Epi, typename Swz, typename Arch, bool Split>
struct GemmUniversalWithVisitor {
    struct Params {
        const float *a, *b;
        float *c;
        int m, n, k;
    };
    static __device__ void run(const Params &p)
    {
        int i = blockIdx.x * blockDim.x + threadIdx.x;
        if (i < p.m * p.n) {
            float s = 0;
            for (int k = 0; k < p.k; k++)
                s += p.a[(i / p.n) * p.k + k] * p.b[k * p.n + i % p.n];
            p.c[i] = s;
        }
    }
};
} // namespace gemm
namespace device {
// The library's one entry point: the operator is its template argument.
template <typename Operator> __global__ void Kernel(typename Operator::Params params)
{
    Operator::run(params);
}
} // namespace device
} // namespace deep

namespace g = deep::gemm;
namespace l = deep::layout;
namespace a = deep::arch;

template <int Stages, int Log>
using Op = g::GemmUniversalWithVisitor<
    g::TensorOperandDescription<float, l::RowMajor, 4, a::GlobalMemoryCacheHint<128>>,
    g::TensorOperandDescription<float, l::ColumnMajorInterleaved<32>, 4, a::GlobalMemoryCacheHint<64>>,
    g::TensorOperandDescription<float, l::ColumnMajor, 4, a::GlobalMemoryCacheHint<32>>, double,
    g::MultistageMma<
        g::ThreadblockWarpInstructionTiling<g::GemmCoordinateShape<128, 256, 32>, g::GemmCoordinateShape<64, 64, 32>, g::GemmCoordinateShape<16, 8, 8>>,
        g::PredicatedTileAccessIterator<
            g::PitchLinearShape<32, 128>, float, l::RowMajor, 1,
            g::WarpRakedThreadMap<g::PitchLinearShape<32, 128>, 256, g::PitchLinearShape<8, 4>, 4>, 4>,
        g::RegularTileAccessIterator<g::PitchLinearShape<32, 128>, float,
                                     l::ColumnMajorInterleaved<16>, 32>,
        g::PredicatedTileAccessIterator<
            g::PitchLinearShape<256, 32>, float, l::ColumnMajor, 0,
            g::WarpRakedThreadMap<g::PitchLinearShape<256, 32>, 256, g::PitchLinearShape<4, 8>, 4>, 4>,
        g::RegularTileAccessIterator<g::PitchLinearShape<256, 32>, float,
                                     l::ColumnMajorInterleaved<64>, 16>,
        double, g::MultistagePipelineConfiguration<Stages, true, g::SharedMemoryClearNone>>,
    g::MultistagePipelineConfiguration<Stages, true, g::SharedMemoryClearNone>,
    g::ThreadblockEpilogueWithBroadcast<
        g::GemmCoordinateShape<128, 256, 32>,
        g::LinearCombinationClamp<float, 4, double, float, 2>, 1,
        g::PredicatedOutputTileIterator<
            g::OutputTileOptimalThreadMap<g::OutputTileShape<256, 8, 2, 1, 1>,
                                          g::OutputTileShape<1, 8, 1, 1, 8>, 256, 4, 32>,
            float, false, true>>,
    g::GemmIdentityThreadblockSwizzle<Log>, a::Sm80, false>;

template __global__ void deep::device::Kernel<Op<3, 1>>(Op<3, 1>::Params);
template __global__ void deep::device::Kernel<Op<4, 2>>(Op<4, 2>::Params);
