import Foundation
import Model

