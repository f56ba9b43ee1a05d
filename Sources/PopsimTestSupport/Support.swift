import PopsimKit
