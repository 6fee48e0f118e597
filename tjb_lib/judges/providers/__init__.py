"""One module per judge provider, each registering one ``provider.Provider`` (found by
``provider.registered``; a new provider is a new module here)."""
