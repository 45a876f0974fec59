"""The bounds on what a client may send, applied as it arrives: request bodies
(``limits``), connections and request headers (``connections``), per-address rates
(``rates``) and per-address quotas counted in the store (``quotas``)."""
