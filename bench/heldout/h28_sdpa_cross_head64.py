import torch
import torch.nn as nn


class Model(nn.Module):
    """Scaled dot-product cross-attention: 8 x 12 heads, 512 queries over 2048 keys, head dimension 64."""

    def forward(self, Q: torch.Tensor, K: torch.Tensor, V: torch.Tensor) -> torch.Tensor:
        return torch.nn.functional.scaled_dot_product_attention(Q, K, V)


batch_size = 8
num_heads = 12
query_length = 512
key_length = 2048
embedding_dimension = 64


def get_inputs():
    Q = torch.randn(batch_size, num_heads, query_length, embedding_dimension)
    K = torch.randn(batch_size, num_heads, key_length, embedding_dimension)
    V = torch.randn(batch_size, num_heads, key_length, embedding_dimension)
    return [Q, K, V]


def get_init_inputs():
    return []
