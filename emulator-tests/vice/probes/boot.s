; boot.s: a measurement, not a test and not part of any disk we ship (issue 14).
;
; Stands in for the game's boot stage: the game's boot sector calls it at $1300, where the
; KERNAL put it as the boot sector's two extra blocks (track 1, sectors 1-2), and it times
; the drive's first requests after the boot with CIA 2 (timer A counts 1000 cycles of the
; 985,248 Hz clock, B the thousands: each unit is 1.015 ms), colours the border at each
; mark, prints the marks in hex (thousands of cycles from its start) and stops. Experiments:
;   EXP=0  the burst FASTLOAD of "BAC", as the stage sends it: OPEN's return, first byte
;   EXP=1  OPEN 15,8,15,"I0" and CLOSE first, then EXP=0's marks
;   EXP=2  a burst READ of the logical sector 1/3 first (OPEN, first byte, its 256 bytes,
;          CLOSE), then EXP=0's marks
;   EXP=3  about 2.2 s of waiting first, then EXP=0's marks
;   EXP=5  EXP=3's wait, OPEN 15,8,15,"UI" and CLOSE (what the KERNAL's BOOT_CALL sends the
;          drive after the boot blocks), then EXP=0's marks
;
; Build (ca65/ld65 from cc65) and put it over the stage of the game's disk (bac disk build):
;   ca65 -D EXP=0 boot.s -o boot.o && ld65 -t none -o boot.bin boot.o
;   cp target/bac.d81 probe.d81
;   dd if=boot.bin of=probe.d81 bs=256 seek=1 conv=notrunc
;   node ../bootshot.mjs probe.d81 450 probe.png      # boots it at power-on; read probe.png
;
; Found with it (VICE 3.9, 1581 with true drive emulation, "BAC" from 39/0 as before its
; first sectors went beside the directory): EXP=0 gives 1359 and 1636, so
; the stage's OPEN waits 1.35 s and the first byte comes 0.28 s later; EXP=1 waits as long
; for the I0; EXP=3 gets OPEN at once after the wait and the first byte 0.30 s later; EXP=5
; waits 1.81 s after the UI. So the 1.35 s is the 1581's reset (its self-test, then its
; autoloader's look at the directory, the motor already running at boot) that the KERNAL's
; UI starts, and 0.3 s is the look-up and the read of the file's first track side. With
; "BAC" from 40/4 (beside_directory in disk/bac.toml) EXP=0 gives 1359 and 1364.
SETBNK = $FF68
SETLFS = $FFBA
SETNAM = $FFBD
OPEN   = $FFC0
CLOSE  = $FFC3
CHROUT = $FFD2

        .org $1300
start:  lda #0
        tax
        jsr SETBNK
        lda #1
        sta $D030                   ; 2 MHz, as the stage runs
        jsr clock_start
        lda #0
        sta nmark
        jsr mark
.if EXP = 1
        ldx #<i0
        ldy #>i0
        jsr command
.endif
.if EXP = 2
        ldx #<read
        ldy #>read
        lda #6
        jsr open15
        jsr mark
        jsr receive
        jsr get_byte                ; the sector's status
        jsr mark
        ldy #0
:       jsr get_byte
        dey
        bne :-
        jsr mark
        cli
        jsr release
        lda #15
        jsr CLOSE
        jsr mark
.endif
.if EXP = 3 || EXP = 5
        ldy #0                      ; 65,536 x (8 x 5 + 5) cycles at 2 MHz
        ldx #0
@idle:  lda #8
:       sec
        sbc #1
        bne :-
        dex
        bne @idle
        dey
        bne @idle
        jsr mark
.endif
.if EXP = 5
        ldx #<ui
        ldy #>ui
        jsr command
.endif
        ldx #<fastload
        ldy #>fastload
        lda #6
        jsr open15
        jsr mark
        jsr receive
        jsr get_byte                ; the first sector's status, $EE if none came
        bcc :+
        lda #$EE
:       sta status
        jsr mark
        cli
        lda #0
        sta $D030
        lda #13
        jsr CHROUT
        ldx #0
@print: lda marks+1,x
        jsr hex
        lda marks,x
        jsr hex
        lda #' '
        jsr CHROUT
        inx
        inx
        cpx nmark
        bcc @print
        lda status
        jsr hex
@stop:  jmp @stop

; The two-letter command at X/Y on the command channel, marked when OPEN returns and when
; CLOSE does.
command:
        lda #2
        jsr open15
        jsr mark
        lda #15
        jsr CLOSE
        jmp mark

; OPEN 15,8,15 with the name at X/Y, A bytes long.
open15: jsr SETNAM
        lda #15
        ldx #8
        ldy #15
        jsr SETLFS
        jmp OPEN

; Interrupts off, CIA 1's serial port and the bus's fast driver inward, CLK released.
receive:
        sei
        lda $DC0E
        and #$80
        ora #$08
        sta $DC0E
        lda $D505
        and #$F7
        sta $D505
        lda $DC0D
release:
        lda $DD00
        and #$EF
        sta $DD00
        rts

; The time to marks (thousands of cycles), and a border colour of its own.
mark:   ldx nmark
:       lda $DD06
        ldy $DD07
        cmp $DD06
        bne :-
        eor #$FF
        sta marks,x
        tya
        eor #$FF
        sta marks+1,x
        inx
        inx
        stx nmark
        txa
        lsr
        sta $D020
        rts

        .include "common.inc"       ; get_byte and hex (its timers count cycles, not ms)

; CIA 2's timers as this probe's clock: A counts 1000 cycles, B the thousands.
clock_start:
        lda #$7F
        sta $DD0D                   ; no NMIs from CIA 2
        lda #0
        sta $DD0E
        sta $DD0F
        lda #<999
        sta $DD04
        lda #>999
        sta $DD05
        lda #$FF
        sta $DD06
        sta $DD07
        lda #%01010001              ; B counts A's underflows; load; start
        sta $DD0F
        lda #%00010001              ; A counts the clock; load; start
        sta $DD0E
        rts

i0:       .byte "I0"
ui:       .byte "UI"
read:     .byte "U0", $80, 1, 3, 1
fastload: .byte "U0", $1F, "BAC"
status:   .byte 0
nmark:    .byte 0
wait:     .byte 0, 0, 0
elapsed:  .byte 0, 0, 0, 0           ; common.inc's timer_stop, unused here
marks:                              ; up to 8 marks, after the code
