package org.acme.storage;

import java.util.HashSet;
import java.util.Set;

public class DefaultUserStore implements UserStore {
    private final Set<String> users = new HashSet<>();

    @Override
    public void save(String user) {
        users.add(user.trim());
    }
}
