package org.acme.storage;

/** What the model calls the required interface IUserStore: the code adds an affix. */
public interface IUserStoreAdapter {
    void save(String user);
}
