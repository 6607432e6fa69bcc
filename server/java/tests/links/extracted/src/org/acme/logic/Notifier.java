package org.acme.logic;

/** An abstract operation: what runs is a subclass's body. */
public abstract class Notifier {
    public abstract int send(String message);
}
