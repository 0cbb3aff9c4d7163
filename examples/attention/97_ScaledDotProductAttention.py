import torch
import torch.nn as nn


class Model(nn.Module):
    """Scaled dot-product attention with a head dimension of 1024."""

    def forward(self, Q: torch.Tensor, K: torch.Tensor, V: torch.Tensor) -> torch.Tensor:
        return torch.nn.functional.scaled_dot_product_attention(Q, K, V)


batch_size = 32
num_heads = 32
sequence_length = 512
embedding_dimension = 1024


def get_inputs():
    Q = torch.rand(batch_size, num_heads, sequence_length, embedding_dimension)
    K = torch.rand(batch_size, num_heads, sequence_length, embedding_dimension)
    V = torch.rand(batch_size, num_heads, sequence_length, embedding_dimension)
    return [Q, K, V]


def get_init_inputs():
    return []
