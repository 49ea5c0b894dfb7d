"""The machine pass: every snippet on another machine (a TPU VM, a GPU box), its report, its CPU control."""
