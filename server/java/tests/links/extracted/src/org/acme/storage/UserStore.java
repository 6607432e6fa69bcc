package org.acme.storage;

/** The store's Java interface: the model names its component after the implementation's stem. */
public interface UserStore {
    void save(String user);
}
