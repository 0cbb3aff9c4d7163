import torch
import torch.nn as nn


class Model(nn.Module):
    """Scaled dot-product attention: 8 x 16 heads, 1024 queries and keys, head dimension 128."""

    def forward(self, Q: torch.Tensor, K: torch.Tensor, V: torch.Tensor) -> torch.Tensor:
        return torch.nn.functional.scaled_dot_product_attention(Q, K, V)


batch_size = 8
num_heads = 16
sequence_length = 1024
embedding_dimension = 128


def get_inputs():
    Q = torch.randn(batch_size, num_heads, sequence_length, embedding_dimension)
    K = torch.randn(batch_size, num_heads, sequence_length, embedding_dimension)
    V = torch.randn(batch_size, num_heads, sequence_length, embedding_dimension)
    return [Q, K, V]


def get_init_inputs():
    return []
