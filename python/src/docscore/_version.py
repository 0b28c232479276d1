# Written by "make python-wheel" from the build's version; this is the
# value of a development tree.
__version__ = "0.0.0.dev0"
