package org.acme.logic;

public class EmailNotifier extends Notifier {
    private int sent;

    @Override
    public int send(String message) {
        sent += message.isEmpty() ? 0 : 1;
        return sent;
    }
}
