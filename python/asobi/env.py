"""env.py placeholder"""
class AECEnv: pass
def env(*a, **k): pass
