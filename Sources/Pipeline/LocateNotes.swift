import Model

