"""Shape inference (shapes.py) against PyTorch's rules, with sizes worked out by hand or taken from KernelBench's
problems (no torch needed)."""
import unittest

import shapes
from suite import Op


def op(name, **args):
    return Op(0, name, args)


class Shapes(unittest.TestCase):
    def test_broadcast(self):
        self.assertEqual(shapes.broadcast([4, 1, 3], [5, 1]), [4, 5, 3])
        self.assertEqual(shapes.broadcast([8], []), [8])
        with self.assertRaisesRegex(shapes.ShapeError, "dim -1: 3 vs 4"):
            shapes.broadcast([2, 3], [4])

    def test_matmul(self):
        self.assertEqual(shapes.matmul([2048, 8192], [8192, 4096]), [2048, 4096])
        self.assertEqual(shapes.matmul([16, 1024, 2048], [2048, 768]), [16, 1024, 768])  # KernelBench L1/10
        self.assertEqual(shapes.matmul([128, 512, 1024], [128, 1024, 2048]), [128, 512, 2048])
        self.assertEqual(shapes.matmul([3, 1, 4, 5], [2, 5, 6]), [3, 2, 4, 6])
        self.assertEqual(shapes.matmul([5], [5, 6]), [6])
        self.assertEqual(shapes.matmul([4, 5], [5]), [4])
        self.assertEqual(shapes.matmul([5], [5]), [])
        with self.assertRaisesRegex(shapes.ShapeError, "inner dims 5 and 4 differ"):
            shapes.matmul([3, 5], [4, 6])

    def test_matmul_transposes(self):
        m = op("matmul", other="B", param=None, transpose_self=True, transpose_other=True)
        self.assertEqual(shapes.infer(m, [8192, 2048], [4096, 8192]), [2048, 4096])  # KernelBench L1/18
        with self.assertRaisesRegex(shapes.ShapeError, "needs at least 2 dims"):
            shapes.infer(m, [8], [8, 8])

    def test_conv(self):
        c = dict(out_channels=96, kernel=[11, 11], stride=[4, 4], padding=[2, 2], dilation=[1, 1], groups=1)
        self.assertEqual(shapes.infer(op("conv", **c), [256, 3, 224, 224], None), [256, 96, 55, 55])  # L1/50
        d = dict(out_channels=64, kernel=[3, 5], stride=[1, 1], padding=[1, 2], dilation=[2, 3], groups=1)
        self.assertEqual(shapes.infer(op("conv", **d), [8, 32, 512, 512], None), [8, 64, 510, 504])
        self.assertEqual(shapes.infer(op("conv", **d), [32, 512, 512], None), [64, 510, 504])  # unbatched
        with self.assertRaisesRegex(shapes.ShapeError, "groups = 2 must divide"):
            shapes.infer(op("conv", **{**c, "groups": 2}), [256, 3, 224, 224], None)

    def test_conv_transpose(self):
        t = dict(out_channels=64, kernel=[3, 3], stride=[1, 1], padding=[0, 0], dilation=[1, 1], groups=1,
                 output_padding=[0, 0])
        self.assertEqual(shapes.infer(op("conv_transpose", **t), [8, 64, 1024, 1024], None), [8, 64, 1026, 1026])
        s = {**t, "stride": [2, 2], "padding": [1, 1], "output_padding": [1, 1], "dilation": [2, 1]}
        # (n - 1) * s - 2p + d (k - 1) + output_padding + 1
        self.assertEqual(shapes.infer(op("conv_transpose", **s), [1, 64, 10, 10], None), [1, 64, 22, 20])
        with self.assertRaisesRegex(shapes.ShapeError, "output_padding 2 must be smaller"):
            shapes.infer(op("conv_transpose", **{**s, "output_padding": [2, 0]}), [1, 64, 10, 10], None)

    def test_pools(self):
        p = dict(kernel=[2, 2], stride=[2, 2], padding=[0, 0])
        self.assertEqual(shapes.infer(op("max_pool", **p), [128, 128, 126, 126], None), [128, 128, 63, 63])
        self.assertEqual(shapes.infer(op("avg_pool", kernel=[16], stride=[16], padding=[0]), [1024, 8192], None),
                         [1024, 512])  # unbatched [C, L], as KernelBench L2/98's chain uses it
        with self.assertRaisesRegex(shapes.ShapeError, "at most half the kernel"):
            shapes.infer(op("max_pool", **{**p, "padding": [2, 0]}), [1, 1, 8, 8], None)
        self.assertEqual(shapes.infer(op("adaptive_avg_pool", output_size=[1, 1]), [2, 8, 7, 7], None), [2, 8, 1, 1])

    def test_reductions(self):
        self.assertEqual(shapes.infer(op("sum", dim=[1], keepdim=True), [1024, 8192], None), [1024, 1])
        self.assertEqual(shapes.infer(op("amax", dim=[-1, 1], keepdim=False), [2, 3, 4], None), [2])
        with self.assertRaisesRegex(shapes.ShapeError, "out of range"):
            shapes.infer(op("mean", dim=[2], keepdim=False), [2, 3], None)
        with self.assertRaisesRegex(shapes.ShapeError, "names a dimension twice"):
            shapes.infer(op("sum", dim=[1, -1], keepdim=False), [2, 3], None)

    def test_norms(self):
        self.assertEqual(shapes.norm_rank([1024, 8192], "instance_norm"), 1)
        self.assertEqual(shapes.norm_rank([8, 16, 32, 32], "batch_norm"), 2)
        self.assertEqual(shapes.norm_rank([8, 16, 4, 32, 32], "batch_norm"), 3)
        with self.assertRaisesRegex(shapes.ShapeError, "2-d to 5-d"):
            shapes.infer(op("batch_norm", eps=1e-5, momentum=0.1), [8], None)
        with self.assertRaisesRegex(shapes.ShapeError, "must divide the channels"):
            shapes.infer(op("group_norm", num_groups=3, eps=1e-5), [8, 16], None)
        self.assertEqual(shapes.infer(op("layer_norm", normalized_shape=[4, 5], eps=1e-5), [3, 4, 5], None), [3, 4, 5])
        with self.assertRaisesRegex(shapes.ShapeError, "not the last dims"):
            shapes.infer(op("layer_norm", normalized_shape=[4], eps=1e-5), [3, 4, 5], None)

    def test_triangles_need_a_matrix(self):
        self.assertEqual(shapes.infer(op("triu"), [2, 4, 4], None), [2, 4, 4])
        with self.assertRaisesRegex(shapes.ShapeError, "at least 2 dims"):
            shapes.infer(op("tril"), [4], None)

    def test_reshape(self):
        self.assertEqual(shapes.infer(op("reshape", shape=[1024, 1, 8192]), [1024, 8192], None), [1024, 1, 8192])
        self.assertEqual(shapes.infer(op("reshape", shape=[-1, 4]), [2, 3, 4], None), [6, 4])
        with self.assertRaisesRegex(shapes.ShapeError, "24 elements.*20 elements"):
            shapes.infer(op("reshape", shape=[5, 4]), [2, 3, 4], None)
        with self.assertRaisesRegex(shapes.ShapeError, "at most one extent may be -1"):
            shapes.infer(op("reshape", shape=[-1, -1]), [2, 3, 4], None)
        with self.assertRaisesRegex(shapes.ShapeError, "not a multiple of 5"):
            shapes.infer(op("reshape", shape=[-1, 5]), [2, 3, 4], None)

    def test_flatten_and_softmax(self):
        self.assertEqual(shapes.infer(op("flatten", start_dim=1), [2, 3, 4, 5], None), [2, 60])
        self.assertEqual(shapes.infer(op("flatten", start_dim=-2), [2, 3, 4, 5], None), [2, 3, 20])
        self.assertEqual(shapes.infer(op("softmax", dim=-1), [2, 3], None), [2, 3])
        with self.assertRaisesRegex(shapes.ShapeError, "out of range"):
            shapes.infer(op("log_softmax", dim=2), [2, 3], None)

    def test_binary_and_linear(self):
        self.assertEqual(shapes.infer(op("add", scalar=1.0, other=None, param=None), [3, 4], None), [3, 4])
        self.assertEqual(shapes.infer(op("mul", scalar=None, other=None, param=[4, 1, 1]), [2, 4, 5, 5], None),
                         [2, 4, 5, 5])
        self.assertEqual(shapes.infer(op("linear", out_features=7, bias=True), [2, 3, 5], None), [2, 3, 7])


if __name__ == "__main__":
    unittest.main()
