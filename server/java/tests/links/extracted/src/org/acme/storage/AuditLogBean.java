package org.acme.storage;

public class AuditLogBean {
    private final StringBuilder log = new StringBuilder();
    private IUserStoreAdapter users;

    public void record(String entry) {
        log.append(entry).append('\n');
        users.save(entry);
    }
}
