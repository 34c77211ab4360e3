import Model
import CExpat

