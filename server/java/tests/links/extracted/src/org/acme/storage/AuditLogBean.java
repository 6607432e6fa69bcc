package org.acme.storage;

public class AuditLogBean {
    private final StringBuilder log = new StringBuilder();

    public void record(String entry) {
        log.append(entry).append('\n');
    }
}
