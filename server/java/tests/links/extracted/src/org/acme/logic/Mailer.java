package org.acme.logic;

import java.util.List;

public class Mailer {
    public int scheduleReminders(List<String> recipients) {
        int sent = 0;
        for (String r : recipients) {
            sent += r.length() > 0 ? 1 : 0;
        }
        return sent;
    }

    public String log(String message, Object... args) {
        return String.format(message, args);
    }
}
