"""Citations: the located blocks of a document, the provenance of each extracted field and its revisions, and
the one citation builder that the API, the tools, the pages and the assistant share."""
