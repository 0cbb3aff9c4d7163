raise ImportError("this problem needs a package that is not installed")
