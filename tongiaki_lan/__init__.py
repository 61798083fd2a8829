"""tongiaki-lan: a serverless LAN edition of Thomas Rauscher's Tongiaki."""

__version__ = "0.1.0"
