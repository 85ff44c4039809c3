"""Editor features, each a function of one view of a document version (see ``..app``)."""
